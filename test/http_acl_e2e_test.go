package test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/route"
)

// startACLNamesrvHTTP is the binary with aclEnable, the accounts of
// aclTestFile (written in the test) and its side port on a free port, with
// a broker "http-acl-broker" of two topics registered unsigned from the
// white-listed 127.0.0.1.
func startACLNamesrvHTTP(t *testing.T) *sidePort {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrvHTTP(t, "-aclEnable", "-aclFile", file)
	broker := nstest.Broker{Cluster: "AclCluster", Name: "acl-broker", Addr: "127.0.0.1:10911", Topics: map[string]int32{"AclTopic": 4, "AclOther": 4}}
	nstest.Register(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), broker)
	return ns
}

// as is a request of the side port with an account's Basic credentials
// (none for the zero Credentials).
func (s *sidePort) as(t *testing.T, cred aclsign.Credentials, method, path string, header map[string]string) nstest.HTTPAnswer {
	t.Helper()
	return nstest.HTTPDo(t, nstest.HTTPRequest{Method: method, URL: s.base + path, User: cred.AccessKey, Pass: cred.SecretKey, Header: header})
}

// TestHTTPACLCredentials: with aclEnable every /v1 endpoint asks for Basic
// credentials (401 with the challenge), health, readiness, metrics, the
// address server and the dashboard page stay open; a user reads the view
// but not /v1/config and /v1/kv, the admin reads those too, and the admin
// account from an address its whiteRemoteAddress refuses gets 403.
func TestHTTPACLCredentials(t *testing.T) {
	ns := startACLNamesrvHTTP(t)
	for _, path := range []string{"/v1/clusters", "/v1/brokers", "/v1/topics", "/v1/topics/AclTopic/route", "/v1/status",
		"/v1/debug", "/v1/stats", "/v1/kv", "/v1/config", "/v1/whoami"} {
		a := ns.as(t, aclsign.Credentials{}, http.MethodGet, path, nil)
		if a.Status != http.StatusUnauthorized || a.Header.Get("WWW-Authenticate") != `Basic realm="rocketmq-namesrv"` ||
			a.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(a.Body, `{"error":`) {
			t.Fatalf("%s without credentials: %d %v %s", path, a.Status, a.Header, a.Body)
		}
		if a := ns.as(t, aclsign.Credentials{AccessKey: aclUser.AccessKey, SecretKey: "wrong"}, http.MethodGet, path, nil); a.Status != http.StatusUnauthorized {
			t.Fatalf("%s with a wrong secret: %d %s", path, a.Status, a.Body)
		}
	}
	// Ten wrong secrets from one address used up its guesses: even the
	// right secret waits until one is back (one a second).
	if a := ns.as(t, aclUser, http.MethodGet, "/v1/whoami", nil); a.Status != http.StatusTooManyRequests || a.Header.Get("Retry-After") == "" {
		t.Fatalf("right secret after ten wrong ones: %d %s, want 429", a.Status, a.Body)
	}
	eventually(t, 10*time.Second, "a guess is back", func() error {
		if a := ns.as(t, aclUser, http.MethodGet, "/v1/whoami", nil); a.Status != http.StatusOK {
			return errString(a.Body)
		}
		return nil
	})
	for _, path := range []string{"/healthz", "/readyz", "/metrics", "/rocketmq/nsaddr", "/", "/assets/app.js"} {
		if a := ns.as(t, aclsign.Credentials{}, http.MethodGet, path, nil); a.Status != http.StatusOK {
			t.Fatalf("%s without credentials: %d %s", path, a.Status, a.Body)
		}
	}
	if a := ns.as(t, aclUser, http.MethodGet, "/v1/topics", nil); a.Status != http.StatusOK || !strings.Contains(a.Body, "AclTopic") {
		t.Fatalf("user /v1/topics: %d %s", a.Status, a.Body)
	}
	if a := ns.as(t, aclUser, http.MethodGet, "/v1/whoami", nil); a.Status != http.StatusOK || !strings.Contains(a.Body, `"admin":false`) {
		t.Fatalf("user /v1/whoami: %d %s", a.Status, a.Body)
	}
	for _, path := range []string{"/v1/config", "/v1/kv"} {
		if a := ns.as(t, aclUser, http.MethodGet, path, nil); a.Status != http.StatusForbidden || !strings.Contains(a.Body, "not an admin") {
			t.Fatalf("user %s: %d %s", path, a.Status, a.Body)
		}
		if a := ns.as(t, aclAdmin, http.MethodGet, path, nil); a.Status != http.StatusOK {
			t.Fatalf("admin %s: %d %s", path, a.Status, a.Body)
		}
	}
	if a := ns.as(t, aclAdmin, http.MethodGet, "/v1/config", nil); strings.Contains(a.Body, aclAdmin.SecretKey) {
		t.Fatal("/v1/config shows a secret key")
	}
	fromElsewhere := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: elsewhere}).DialContext}}
	a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: ns.base + "/v1/config", User: aclAdmin.AccessKey, Pass: aclAdmin.SecretKey, Client: fromElsewhere})
	if a.Status != http.StatusForbidden || !strings.Contains(a.Body, "127.0.0.2") {
		t.Fatalf("admin from 127.0.0.2: %d %s", a.Status, a.Body)
	}
}

// permOf is AclTopic's queue permission as a client gets it over the wire.
func permOf(t *testing.T, addr string) int32 {
	t.Helper()
	s := readState(t, addr)
	if !s.topicFound {
		t.Fatal("AclTopic has no route")
	}
	return s.perm
}

// TestHTTPACLDrainUndrain: an admin's POST drain wipes the write
// permission seen over the wire (GET_ROUTEINFO_BY_TOPIC), undrain restores
// it; a user's, an anonymous one, one without the CSRF header and a GET
// change nothing.
func TestHTTPACLDrainUndrain(t *testing.T) {
	ns := startACLNamesrvHTTP(t)
	csrf := map[string]string{"X-Requested-By": "e2e"}
	if perm := permOf(t, ns.Addr); perm != route.PermRead|route.PermWrite {
		t.Fatalf("perm %d before", perm)
	}
	refused := []struct {
		name   string
		cred   aclsign.Credentials
		method string
		header map[string]string
		status int
	}{
		{"user", aclUser, http.MethodPost, csrf, http.StatusForbidden},
		{"anonymous", aclsign.Credentials{}, http.MethodPost, csrf, http.StatusUnauthorized},
		{"admin without X-Requested-By", aclAdmin, http.MethodPost, nil, http.StatusForbidden},
		{"admin GET", aclAdmin, http.MethodGet, csrf, http.StatusMethodNotAllowed},
	}
	for _, r := range refused {
		if a := ns.as(t, r.cred, r.method, "/v1/brokers/acl-broker/drain", r.header); a.Status != r.status {
			t.Fatalf("%s: %d %s, want %d", r.name, a.Status, a.Body, r.status)
		}
		if perm := permOf(t, ns.Addr); perm != route.PermRead|route.PermWrite {
			t.Fatalf("%s changed the perm to %d", r.name, perm)
		}
	}
	a := ns.as(t, aclAdmin, http.MethodPost, "/v1/brokers/acl-broker/drain", csrf)
	if a.Status != http.StatusOK || !strings.Contains(a.Body, `"topics":2`) {
		t.Fatalf("admin drain: %d %s", a.Status, a.Body)
	}
	if perm := permOf(t, ns.Addr); perm != route.PermRead {
		t.Fatalf("perm %d after the drain, want read only", perm)
	}
	if a := ns.as(t, aclUser, http.MethodPost, "/v1/brokers/acl-broker/undrain", csrf); a.Status != http.StatusForbidden {
		t.Fatalf("user undrain: %d %s", a.Status, a.Body)
	}
	if perm := permOf(t, ns.Addr); perm != route.PermRead {
		t.Fatalf("a user's undrain changed the perm to %d", perm)
	}
	if a := ns.as(t, aclAdmin, http.MethodPost, "/v1/brokers/acl-broker/undrain", csrf); a.Status != http.StatusOK {
		t.Fatalf("admin undrain: %d %s", a.Status, a.Body)
	}
	if perm := permOf(t, ns.Addr); perm != route.PermRead|route.PermWrite {
		t.Fatalf("perm %d after the undrain", perm)
	}
}

// TestHTTPDrainRefusedWithoutACL: without aclEnable the view stays open
// and the write endpoints are refused to everyone, saying ACL is off.
func TestHTTPDrainRefusedWithoutACL(t *testing.T) {
	ns := startNamesrvHTTP(t)
	nstest.Register(t, nstest.NewClient(t, ns.Addr), nstest.BrokerB)
	if a := ns.as(t, aclsign.Credentials{}, http.MethodGet, "/v1/config", nil); a.Status != http.StatusOK {
		t.Fatalf("/v1/config without ACL: %d %s", a.Status, a.Body)
	}
	a := ns.as(t, aclAdmin, http.MethodPost, "/v1/brokers/"+nstest.BrokerB.Name+"/drain", map[string]string{"X-Requested-By": "e2e"})
	if a.Status != http.StatusForbidden || !strings.Contains(a.Body, "ACL is off") {
		t.Fatalf("drain without ACL: %d %s", a.Status, a.Body)
	}
	var brokers struct {
		Brokers []struct {
			BrokerName     string `json:"brokerName"`
			WritePermWiped bool   `json:"writePermWiped"`
		} `json:"brokers"`
	}
	ns.getJSON(t, "/v1/brokers", http.StatusOK, &brokers)
	if len(brokers.Brokers) != 1 || brokers.Brokers[0].WritePermWiped {
		t.Fatalf("brokers after a refused drain: %+v", brokers)
	}
}

// TestHTTPSEnforcingWithACL: with tls.server.mode=enforcing the side port
// serves HTTPS with the remoting port's certificate (Basic credentials
// still asked for), refuses plain HTTP, and follows the certificate's
// reload.
func TestHTTPSEnforcingWithACL(t *testing.T) {
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "namesrv.properties")
	text := "tls.server.mode=enforcing\ntls.server.certPath=" + certs.ServerCert + "\ntls.server.keyPath=" + certs.ServerKey + "\n"
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	acls := filepath.Join(dir, "plain_acl.yml")
	if err := os.WriteFile(acls, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	startNamesrv(t, "-c", conf, "-aclEnable", "-aclFile", acls, "-httpListenPort", strconv.Itoa(port))
	base := "https://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: certs.ClientTLS(false)}}
	// /healthz answers as soon as the port listens, /readyz 503 until the
	// server is attached (after the remoting port listens): wait for both.
	eventually(t, 30*time.Second, "the HTTPS side port answers, ready", func() error {
		if _, err := nstest.TryHTTP(nstest.HTTPRequest{URL: base + "/healthz", Client: client}); err != nil {
			return err
		}
		a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: base + "/readyz", Client: client})
		if err != nil {
			return err
		}
		if a.Status != http.StatusOK {
			return fmt.Errorf("readyz over HTTPS: %d %s", a.Status, a.Body)
		}
		return nil
	})
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/status", Client: client}); a.Status != http.StatusUnauthorized {
		t.Fatalf("/v1/status over HTTPS without credentials: %d", a.Status)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + "/v1/status", Client: client, User: aclUser.AccessKey, Pass: aclUser.SecretKey}); a.Status != http.StatusOK {
		t.Fatalf("/v1/status over HTTPS as the user: %d %s", a.Status, a.Body)
	}
	plain := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/healthz"
	if a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: plain}); err == nil && a.Status == http.StatusOK {
		t.Fatal("plain HTTP served with tls.server.mode=enforcing")
	}

	// A new certificate (of another CA) written over the files is served
	// once the remoting port reloads it.
	next, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{next.ServerCert: certs.ServerCert, next.ServerKey: certs.ServerKey} {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	nextClient := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: next.ClientTLS(false)}}
	eventually(t, 10*time.Second, "the side port serves the reloaded certificate", func() error {
		_, err := nstest.TryHTTP(nstest.HTTPRequest{URL: base + "/healthz", Client: nextClient})
		return err
	})
}
