package portguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// A port behind a Guard: a user's signed read is served, its write and a
// code without a class (an admin write) are refused 16; an admin's write is
// served. Without a checker the handler is the bare one.
func TestGuardChecksEachCodesClass(t *testing.T) {
	checker := enabledChecker(t, "accounts:\n  - accessKey: adminKey01\n    secretKey: adminSecret01\n    admin: true\n"+
		"  - accessKey: userKey01\n    secretKey: userSecret01\n")
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	ok := func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	}
	const read, write, unclassified = 1001, 1002, 1003
	guard := Guard{Port: srv, Checker: checker, Classes: map[int32]acl.Class{read: acl.AdminRead, write: acl.AdminWrite}}
	for _, code := range []int32{read, write, unclassified} {
		guard.Handle(code, ok)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	client := func(ak, sk string) *remoting.Client {
		c := remoting.NewClient(srv.Addr().String(), remoting.ClientConfig{
			Sign: aclsign.Signer(aclsign.Credentials{AccessKey: ak, SecretKey: sk})})
		t.Cleanup(func() { c.Close() })
		return c
	}
	send := func(c *remoting.Client, code int32) int32 { return invokeCode(t, c, code).Code }
	user, admin := client("userKey01", "userSecret01"), client("adminKey01", "adminSecret01")
	for _, c := range []struct {
		client *remoting.Client
		code   int32
		want   int32
	}{
		{user, read, remoting.SUCCESS}, {user, write, remoting.NO_PERMISSION}, {user, unclassified, remoting.NO_PERMISSION},
		{admin, write, remoting.SUCCESS}, {admin, unclassified, remoting.SUCCESS}, {client("", ""), read, remoting.NO_PERMISSION},
	} {
		if got := send(c.client, c.code); got != c.want {
			t.Errorf("code %d: answered %d, want %d", c.code, got, c.want)
		}
	}
	bare := Guard{}.Wrap(write, ok) // no checker: a nil connection never reaches a check
	if resp := bare(nil, remoting.NewRequest(write, nil, nil)); resp.Code != remoting.SUCCESS {
		t.Fatalf("unguarded handler answered %d", resp.Code)
	}
}

// enabledChecker is a checker with aclEnable over the accounts given,
// closed when the test ends.
func enabledChecker(t *testing.T, accounts string) *acl.Checker {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(accounts), 0o600); err != nil {
		t.Fatal(err)
	}
	checker, err := NewChecker(ACLKeys{AclEnable: true, AclFile: file}, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(checker.Close)
	return checker
}

// invokeCode sends one request of code (with a header field) on c.
func invokeCode(t *testing.T, c *remoting.Client, code int32) *remoting.Command {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Invoke(ctx, remoting.NewRequest(code, map[string]string{"brokerName": "b"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}
