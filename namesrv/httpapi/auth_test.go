package httpapi

import (
	"crypto/tls"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

const testAccounts = `
accounts:
  - accessKey: userKey1
    secretKey: userSecret1
  - accessKey: adminKey1
    secretKey: adminSecret1
    admin: true
`

// drains records the Drain and Undrain calls of a source.
type drains struct {
	mu    sync.Mutex
	calls []string
}

func (d *drains) record(action string) func(string) int {
	return func(name string) int {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.calls = append(d.calls, action+" "+name)
		return 3
	}
}

func (d *drains) list() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return strings.Join(d.calls, ",")
}

// attachedSource is a source on an empty route table with the checker.
func attachedSource(t *testing.T, s *Server, checker *acl.Checker, d *drains) {
	t.Helper()
	m := metrics.New(metrics.Sources{}, nil, time.Now())
	s.Attach(&Source{Routes: route.NewManager(route.Config{}), Metrics: m, Ready: func() (bool, string) { return true, "" },
		KV: func() map[string]map[string]string { return nil }, Config: func() map[string]string { return map[string]string{} },
		NameServers: func() string { return "127.0.0.1:9876" }, RemoteOf: func(route.ConnID) string { return "" },
		OrderTopicConf: func(string) string { return "" }, Started: time.Now(), Addr: "127.0.0.1:9876",
		ACL: checker, Drain: d.record("drain"), Undrain: d.record("undrain")})
}

func testChecker(t *testing.T, enabled bool, adminWhite ...string) *acl.Checker {
	t.Helper()
	white, err := acl.ParsePatternList(strings.Join(adminWhite, ","))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(testAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := acl.New(acl.Options{Enabled: enabled, File: file, AdminWhite: white, Log: testlog.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBasicAuthUnderACL: 401 with the challenge without or with wrong
// credentials, 403 for a user on an admin endpoint, the open endpoints open,
// and every refusal counted by the checker under the wire's reasons.
func TestBasicAuthUnderACL(t *testing.T) {
	s := startSidePort(t)
	checker := testChecker(t, true)
	attachedSource(t, s, checker, &drains{})
	base := "http://" + s.Addr().String()

	a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/status"})
	if a.Status != http.StatusUnauthorized || a.Header.Get("WWW-Authenticate") != `Basic realm="rocketmq-namesrv"` ||
		a.Header.Get("Content-Type") != "application/json" || !strings.Contains(a.Body, `"error"`) {
		t.Fatalf("no credentials: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/status", User: "userKey1", Pass: "wrong"}); a.Status != http.StatusUnauthorized {
		t.Fatalf("wrong secret: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/status", User: "userKey1", Pass: "userSecret1"}); a.Status != http.StatusOK {
		t.Fatalf("user on /v1/status: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/config", User: "userKey1", Pass: "userSecret1"}); a.Status != http.StatusForbidden ||
		!strings.Contains(a.Body, "not an admin") {
		t.Fatalf("user on /v1/config: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/config", User: "adminKey1", Pass: "adminSecret1"}); a.Status != http.StatusOK {
		t.Fatalf("admin on /v1/config: %+v", a)
	}
	a = nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/whoami", User: "adminKey1", Pass: "adminSecret1"})
	if a.Status != http.StatusOK || !strings.Contains(a.Body, `"admin":true`) || !strings.Contains(a.Body, `"aclEnable":true`) {
		t.Fatalf("whoami of the admin: %+v", a)
	}
	for _, path := range []string{"/healthz", "/readyz", "/rocketmq/nsaddr", "/", "/assets/app.js"} {
		if status, _ := get(t, s, path); status != http.StatusOK {
			t.Fatalf("%s without credentials: %d", path, status)
		}
	}
	if checker.Denied(acl.AdminRead, acl.NotSigned) != 1 || checker.Denied(acl.AdminRead, acl.SignatureMismatch) != 1 ||
		checker.Denied(acl.AdminWrite, acl.NotAdmin) != 1 {
		t.Fatalf("denials %+v", checker.Denials())
	}
}

// TestDrainGuards: the write endpoints are refused without ACL, without
// the CSRF header, from another origin, to a user, by GET; an admin's POST
// reaches Drain and Undrain.
func TestDrainGuards(t *testing.T) {
	off := startSidePort(t)
	offDrains := &drains{}
	attachedSource(t, off, testChecker(t, false), offDrains)
	csrf := map[string]string{CSRFHeader: "test"}
	a := nstest.HTTPDo(t, nstest.HTTPRequest{Method: http.MethodPost, URL: "http://" + off.Addr().String() + "/v1/brokers/broker-a/drain",
		User: "adminKey1", Pass: "adminSecret1", Header: csrf})
	if a.Status != http.StatusForbidden || !strings.Contains(a.Body, "ACL is off") || offDrains.list() != "" {
		t.Fatalf("drain without ACL: %+v, calls %q", a, offDrains.list())
	}

	s := startSidePort(t)
	d := &drains{}
	attachedSource(t, s, testChecker(t, true), d)
	url := "http://" + s.Addr().String() + "/v1/brokers/broker-a/"
	admin := func(method, action string, header map[string]string) nstest.HTTPAnswer {
		return nstest.HTTPDo(t, nstest.HTTPRequest{Method: method, URL: url + action, User: "adminKey1", Pass: "adminSecret1", Header: header})
	}
	if a := admin(http.MethodPost, "drain", nil); a.Status != http.StatusForbidden || !strings.Contains(a.Body, CSRFHeader) {
		t.Fatalf("no CSRF header: %+v", a)
	}
	if a := admin(http.MethodPost, "drain", map[string]string{CSRFHeader: "x", "Origin": "http://evil.example"}); a.Status != http.StatusForbidden {
		t.Fatalf("other origin: %+v", a)
	}
	if a := admin(http.MethodGet, "drain", csrf); a.Status != http.StatusMethodNotAllowed {
		t.Fatalf("GET drain: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{Method: http.MethodPost, URL: url + "drain", User: "userKey1", Pass: "userSecret1", Header: csrf}); a.Status != http.StatusForbidden {
		t.Fatalf("user drain: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{Method: http.MethodPost, URL: url + "drain", Header: csrf}); a.Status != http.StatusUnauthorized {
		t.Fatalf("anonymous drain: %+v", a)
	}
	if d.list() != "" {
		t.Fatalf("a refused request drained: %q", d.list())
	}
	if a := admin(http.MethodPost, "drain", csrf); a.Status != http.StatusOK || !strings.Contains(a.Body, `"topics":3`) {
		t.Fatalf("admin drain: %+v", a)
	}
	if a := admin(http.MethodPost, "undrain", map[string]string{CSRFHeader: "x", "Origin": "http://" + s.Addr().String()}); a.Status != http.StatusOK {
		t.Fatalf("admin undrain, same origin: %+v", a)
	}
	if d.list() != "drain broker-a,undrain broker-a" {
		t.Fatalf("calls %q", d.list())
	}
}

// TestDrainUnderAdminWhiteRemoteAddresses: the side port's admin path is
// the wire's, so adminWhiteRemoteAddresses refuses an admin elsewhere.
func TestDrainUnderAdminWhiteRemoteAddresses(t *testing.T) {
	s := startSidePort(t)
	d := &drains{}
	checker := testChecker(t, true, "10.0.0.1")
	attachedSource(t, s, checker, d)
	a := nstest.HTTPDo(t, nstest.HTTPRequest{Method: http.MethodPost, URL: "http://" + s.Addr().String() + "/v1/brokers/broker-a/drain",
		User: "adminKey1", Pass: "adminSecret1", Header: map[string]string{CSRFHeader: "x"}})
	if a.Status != http.StatusForbidden || !strings.Contains(a.Body, "admin writes are not allowed from the address 127.0.0.1") || d.list() != "" {
		t.Fatalf("admin from outside adminWhiteRemoteAddresses: %+v, calls %q", a, d.list())
	}
	if checker.Denied(acl.AdminWrite, acl.AdminAddressNotAllowed) != 1 {
		t.Fatalf("denials %+v", checker.Denials())
	}
}

// TestHTTPSWithTheSourceCertificate: a NewTLS side port refuses handshakes
// until a source brings the certificate, then serves HTTPS with it.
func TestHTTPSWithTheSourceCertificate(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewTLS("127.0.0.1:0", testlog.Discard(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shutdownAtCleanup(t, s)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: certs.ClientTLS(false)}}
	url := "https://" + s.Addr().String() + "/healthz"
	if _, err := nstest.TryHTTP(nstest.HTTPRequest{URL: url, Client: client}); err == nil {
		t.Fatal("an HTTPS handshake succeeded before the certificate was attached")
	}
	pair, err := tls.LoadX509KeyPair(certs.ServerCert, certs.ServerKey)
	if err != nil {
		t.Fatal(err)
	}
	m := metrics.New(metrics.Sources{}, nil, time.Now())
	s.Attach(&Source{Metrics: m, Ready: func() (bool, string) { return true, "" }, TLS: &tls.Config{Certificates: []tls.Certificate{pair}}})
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: url, Client: client}); a.Status != http.StatusOK {
		t.Fatalf("healthz over HTTPS: %+v", a)
	}
	if a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: "http://" + s.Addr().String() + "/healthz"}); err == nil && a.Status == http.StatusOK {
		t.Fatal("plain HTTP served on the HTTPS side port")
	}
}

// TestBasicGuessesPaced: a peer that sent acl.BasicGuessBurst wrong
// secrets is answered 429 with Retry-After, even with the right one, until
// a guess is back; before, the side port checked 1,500 guesses a second.
func TestBasicGuessesPaced(t *testing.T) {
	s := startSidePort(t)
	checker := testChecker(t, true)
	attachedSource(t, s, checker, &drains{})
	url := "http://" + s.Addr().String() + "/v1/status"
	for i := range acl.BasicGuessBurst {
		if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: url, User: "userKey1", Pass: "guess123"}); a.Status != http.StatusUnauthorized {
			t.Fatalf("wrong secret %d: %+v", i+1, a)
		}
	}
	a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: url, User: "userKey1", Pass: "userSecret1"})
	if a.Status != http.StatusTooManyRequests || a.Header.Get("Retry-After") != "1" || !strings.Contains(a.Body, "too many wrong credentials") {
		t.Fatalf("after %d wrong secrets: %+v, want 429", acl.BasicGuessBurst, a)
	}
	if checker.Denied(acl.AdminRead, acl.TooManyGuesses) != 1 {
		t.Fatalf("denials %+v", checker.Denials())
	}
}
