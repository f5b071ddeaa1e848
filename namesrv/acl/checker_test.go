package acl

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

const testFile = `
globalWhiteRemoteAddresses:
  - 10.0.0.*
accounts:
  - accessKey: userKey1
    secretKey: userSecret1
  - accessKey: adminKey1
    secretKey: adminSecret1
    whiteRemoteAddress: 127.0.0.1
    admin: true
`

var (
	user  = aclsign.Credentials{AccessKey: "userKey1", SecretKey: "userSecret1"}
	admin = aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "adminSecret1"}
	local = netip.MustParseAddr("127.0.0.1")
	other = netip.MustParseAddr("127.0.0.2")
)

// newTestChecker writes text as the accounts file and returns a checker on
// it with the log captured.
func newTestChecker(t testing.TB, text string, opts Options) (*Checker, *testlog.Buffer) {
	t.Helper()
	opts.File = filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(opts.File, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	logged := &testlog.Buffer{}
	logger := logrus.New()
	logger.SetOutput(logged)
	opts.Log = logrus.NewEntry(logger)
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, logged
}

func signed(cred aclsign.Credentials, ext map[string]string, body []byte) map[string]string {
	out := map[string]string{}
	for k, v := range ext {
		out[k] = v
	}
	aclsign.Sign(out, body, cred)
	return out
}

func reasonOf(d *Denial) string {
	if d == nil {
		return "admitted"
	}
	return d.Reason.String()
}

func TestCheckPerClass(t *testing.T) {
	c, logged := newTestChecker(t, testFile, Options{Enabled: true, AnonymousRouteRead: true})
	topic := map[string]string{"topic": "T"}
	body := []byte("body")
	bad := signed(user, topic, body)
	bad[aclsign.Signature] = "AAAA" + bad[aclsign.Signature][4:]
	cases := []struct {
		name   string
		class  Class
		ext    map[string]string
		remote netip.Addr
		want   string
	}{
		{"anonymous route read", RouteRead, topic, other, "admitted"},
		{"user route read", RouteRead, signed(user, topic, body), other, "admitted"},
		{"bad signature route read", RouteRead, bad, local, "signature_mismatch"},
		{"unknown key", RouteRead, signed(aclsign.Credentials{AccessKey: "nobody1", SecretKey: "userSecret1"}, topic, body), local, "unknown_access_key"},
		{"signature without key", AdminRead, map[string]string{aclsign.Signature: "x"}, local, "unknown_access_key"},
		{"anonymous admin read", AdminRead, topic, local, "not_signed"},
		{"user admin read", AdminRead, signed(user, topic, body), local, "admitted"},
		{"user admin write", AdminWrite, signed(user, topic, body), local, "not_admin"},
		{"admin write", AdminWrite, signed(admin, topic, body), local, "admitted"},
		{"admin write elsewhere", AdminWrite, signed(admin, topic, body), other, "address_not_allowed"},
		{"anonymous admin write", AdminWrite, topic, local, "not_signed"},
		{"anonymous broker", BrokerCtl, topic, local, "not_signed"},
		{"white-listed broker", BrokerCtl, topic, netip.MustParseAddr("10.0.0.9"), "admitted"},
		{"user-signed broker", BrokerCtl, signed(user, topic, body), local, "not_admin"},
		{"user-signed white-listed broker", BrokerCtl, signed(user, topic, body), netip.MustParseAddr("10.0.0.9"), "admitted"},
		{"admin-signed broker", BrokerCtl, signed(admin, topic, body), local, "admitted"},
		{"admin-signed broker elsewhere", BrokerCtl, signed(admin, topic, body), other, "address_not_allowed"},
	}
	for _, tc := range cases {
		if got := reasonOf(c.Check(tc.class, tc.ext, body, tc.remote)); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if c.Denied(AdminWrite, NotAdmin) != 1 || c.Denied(BrokerCtl, NotAdmin) != 1 || c.Denied(RouteRead, SignatureMismatch) != 2 || len(c.Denials()) != 9 {
		t.Errorf("denials = %+v", c.Denials())
	}
	if strings.Contains(logged.String(), "Secret1") {
		t.Errorf("a secret was logged: %s", logged.String())
	}
	// Changing the body after signing is a mismatch.
	if got := reasonOf(c.Check(AdminWrite, signed(admin, topic, body), []byte("other"), local)); got != "signature_mismatch" {
		t.Errorf("changed body: %s", got)
	}
}

// TestUnknownKeyAndBadSignatureLookAlike: a peer without a secret cannot
// tell an AccessKey that exists from one that does not: the remark and
// the counters are the same (only the log says which).
func TestUnknownKeyAndBadSignatureLookAlike(t *testing.T) {
	c, logged := newTestChecker(t, testFile, Options{Enabled: true})
	unknown := c.Check(AdminRead, signed(aclsign.Credentials{AccessKey: "nobody1", SecretKey: "guess123"}, nil, nil), nil, local)
	wrong := c.Check(AdminRead, signed(aclsign.Credentials{AccessKey: "userKey1", SecretKey: "guess123"}, nil, nil), nil, local)
	if unknown == nil || wrong == nil || unknown.Error() != wrong.Error() {
		t.Fatalf("remarks differ: %v / %v", unknown, wrong)
	}
	if c.Denied(AdminRead, SignatureMismatch) != 2 || c.Denied(AdminRead, UnknownAccessKey) != 0 {
		t.Fatalf("counters tell them apart: %+v", c.Denials())
	}
	basicUnknown := c.CheckBasic("nobody1", "guess123", local, false)
	basicWrong := c.CheckBasic("userKey1", "guess123", local, false)
	if basicUnknown == nil || basicWrong == nil || basicUnknown.Error() != basicWrong.Error() {
		t.Fatalf("Basic remarks differ: %v / %v", basicUnknown, basicWrong)
	}
	if !strings.Contains(logged.String(), "reason=unknown_access_key") {
		t.Fatalf("the log does not name the reason: %s", logged.String())
	}
}

// TestBrokerControlNeedsAdmin: a client's account cannot register or
// remove brokers, and the refusal says what would be admitted.
func TestBrokerControlNeedsAdmin(t *testing.T) {
	c, _ := newTestChecker(t, testFile, Options{Enabled: true})
	d := c.Check(BrokerCtl, signed(user, map[string]string{"brokerName": "b"}, nil), nil, other)
	if d == nil || d.Reason != NotAdmin || !strings.Contains(d.Error(), "admin account") ||
		!strings.Contains(d.Error(), "globalWhiteRemoteAddresses") || !strings.Contains(d.Error(), "127.0.0.2") {
		t.Fatalf("user-signed broker control: %v", d)
	}
}

func TestCheckNoAnonymousRoutes(t *testing.T) {
	c, _ := newTestChecker(t, testFile, Options{Enabled: true})
	if got := reasonOf(c.Check(RouteRead, map[string]string{"topic": "T"}, nil, local)); got != "not_signed" {
		t.Fatalf("anonymous route read: %s", got)
	}
	d := c.Check(RouteRead, nil, nil, local)
	if d == nil || !strings.Contains(d.Error(), "not signed") {
		t.Fatalf("remark = %v", d)
	}
}

func TestAdminWhiteWithoutACL(t *testing.T) {
	white, _ := ParsePatternList("127.0.0.1")
	c, err := New(Options{AdminWhite: white})
	if err != nil {
		t.Fatal(err)
	}
	if c.Guards(RouteRead) || !c.Guards(AdminWrite) {
		t.Fatal("guards wrong")
	}
	if c.Check(AdminWrite, nil, nil, local) != nil {
		t.Fatal("allowed address refused")
	}
	if got := reasonOf(c.Check(AdminWrite, nil, nil, other)); got != "admin_address_not_allowed" {
		t.Fatalf("other address: %s", got)
	}
	open, _ := New(Options{})
	if open.Guards(AdminWrite) || open.Check(AdminWrite, nil, nil, other) != nil {
		t.Fatal("checker without settings refuses")
	}
}

func TestCheckBasic(t *testing.T) {
	c, _ := newTestChecker(t, testFile, Options{Enabled: true})
	if err := c.CheckBasic("adminKey1", "adminSecret1", local, true); err != nil {
		t.Fatal(err)
	}
	var d *Denial
	if err := c.CheckBasic("userKey1", "userSecret1", local, true); !errors.As(err, &d) || d.Reason != NotAdmin {
		t.Fatalf("user as admin: %v", err)
	}
	if err := c.CheckBasic("userKey1", "userSecret2", local, false); !errors.As(err, &d) || d.Reason != SignatureMismatch {
		t.Fatalf("wrong secret: %v", err)
	}
	if err := c.CheckBasic("userKey1", "userSecret1", other, false); err != nil {
		t.Fatalf("user read: %v", err)
	}
}

func TestDenialLogPaced(t *testing.T) {
	c, logged := newTestChecker(t, testFile, Options{Enabled: true})
	for range 50 {
		c.Check(AdminRead, nil, nil, other)
	}
	if n := strings.Count(logged.String(), "request refused"); n != 1 {
		t.Fatalf("%d log lines for 50 denials in well under a second", n)
	}
	if !strings.Contains(logged.String(), "remote=127.0.0.2") {
		t.Fatalf("log lacks the peer: %s", logged.String())
	}
	if c.Denied(AdminRead, NotSigned) != 50 {
		t.Fatal("not every denial counted")
	}
}

func TestNewRefusesBadFile(t *testing.T) {
	if _, err := New(Options{Enabled: true, File: filepath.Join(t.TempDir(), "missing.yml")}); err == nil {
		t.Fatal("missing file accepted")
	}
	file := filepath.Join(t.TempDir(), "bad.yml")
	_ = os.WriteFile(file, []byte("accounts: ["), 0o600)
	if _, err := New(Options{Enabled: true, File: file}); !errors.Is(err, ErrBadFile) {
		t.Fatalf("bad file: %v", err)
	}
}

func TestReload(t *testing.T) {
	c, logged := newTestChecker(t, testFile, Options{Enabled: true})
	c.Watch(10 * time.Millisecond)
	defer c.Close()
	write := func(text string) {
		if err := os.WriteFile(c.opts.File, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	eventually := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10 s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	write(strings.Replace(testFile, "userSecret1", "userSecret2", 1))
	eventually("new secret in force", func() bool {
		return c.Check(AdminRead, signed(aclsign.Credentials{AccessKey: "userKey1", SecretKey: "userSecret2"}, nil, nil), nil, local) == nil
	})
	write("accounts: [")
	eventually("broken file counted", func() bool { return c.ReloadFailures() == 1 })
	time.Sleep(50 * time.Millisecond)
	if c.ReloadFailures() != 1 || strings.Count(logged.String(), "file refused") != 1 {
		t.Fatalf("the same broken file counted or logged again: %d", c.ReloadFailures())
	}
	if c.Check(AdminRead, signed(aclsign.Credentials{AccessKey: "userKey1", SecretKey: "userSecret2"}, nil, nil), nil, local) != nil {
		t.Fatal("a broken file dropped the accounts in force")
	}
}
