package portguard

import (
	"context"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// A server that guards one code with Check: an unsigned request is refused
// 16 with the checker's remark; an admin's same signed request, sent
// twice on one connection, is admitted both times and verified once (the
// connection's memo).
func TestCheckRefusesAndRemembersOnTheConnection(t *testing.T) {
	checker := enabledChecker(t, "accounts:\n  - accessKey: adminKey01\n    secretKey: adminSecret01\n    admin: true\n")
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	srv.Handle(1003, func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		if denial := Check(checker, acl.BrokerCtl, conn, req); denial != nil {
			return Refusal(req, denial)
		}
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown(context.Background())
	send := func(c *remoting.Client) *remoting.Command { return invokeCode(t, c, 1003) }
	plain := remoting.NewClient(srv.Addr().String(), remoting.ClientConfig{})
	defer plain.Close()
	if resp := send(plain); resp.Code != remoting.NO_PERMISSION || resp.Remark == "" {
		t.Fatalf("unsigned: %d %q", resp.Code, resp.Remark)
	}
	signed := remoting.NewClient(srv.Addr().String(), remoting.ClientConfig{
		Sign: aclsign.Signer(aclsign.Credentials{AccessKey: "adminKey01", SecretKey: "adminSecret01"})})
	defer signed.Close()
	before := checker.SignatureChecks()
	for range 2 {
		if resp := send(signed); resp.Code != remoting.SUCCESS {
			t.Fatalf("admin: %d %q", resp.Code, resp.Remark)
		}
	}
	if got := checker.SignatureChecks() - before; got != 1 {
		t.Fatalf("%d signatures verified for the same request twice on one connection, want 1", got)
	}
}
