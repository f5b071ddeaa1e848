package namesrv

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestUnguardedHandlersStayBare: with ACL off and no admin allow-list, the
// dispatch table holds the handlers themselves, so an unsigned route read
// costs nothing more than before; with adminWhiteRemoteAddresses only the
// admin writes are wrapped.
func TestUnguardedHandlersStayBare(t *testing.T) {
	for _, white := range []string{"", "127.0.0.1"} {
		s := startServer(t, func(cfg *config.Config) { cfg.AdminWhiteRemoteAddresses = white })
		for _, spec := range s.ns.handlerTable() {
			bare := reflect.ValueOf(s.ns.guarded(spec)).Pointer() == reflect.ValueOf(spec.handler).Pointer()
			wantBare := white == "" || spec.class != classAdminWrite
			if bare != wantBare {
				t.Errorf("white %q, code %d: bare=%v, want %v", white, spec.code, bare, wantBare)
			}
		}
	}
}

// aclServer is a NameServer with aclEnable and one admin account.
func aclServer(t *testing.T) *testServer {
	t.Helper()
	return startServer(t, func(cfg *config.Config) {
		cfg.AclEnable = true
		cfg.AclFile = filepath.Join(t.TempDir(), "plain_acl.yml")
		accounts := "accounts:\n  - accessKey: adminKey1\n    secretKey: adminSecret1\n    admin: true\n"
		if err := os.WriteFile(cfg.AclFile, []byte(accounts), 0o600); err != nil {
			t.Fatal(err)
		}
	})
}

// TestBodyRefusedBeforeSignature: a body on a code that takes none is
// answered code 1 before its signature is checked (no HMAC over megabytes
// the handler would ignore); bodies where a code takes one still pass.
func TestBodyRefusedBeforeSignature(t *testing.T) {
	s := aclServer(t)
	admin := aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "adminSecret1"}
	wrong := aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "notTheSecret"}
	signedClient := func(cred aclsign.Credentials) *remoting.Client {
		c := remoting.NewClient(s.addr(), remoting.ClientConfig{Sign: aclsign.Signer(cred)})
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	get := func(body []byte) *remoting.Command {
		return remoting.NewRequest(remoting.GET_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k"}, body)
	}
	for _, cred := range []aclsign.Credentials{admin, wrong} {
		mustRefuse(t, nstest.Invoke(t, signedClient(cred), get(big)), "GET_KV_CONFIG takes no body")
	}
	if n := s.ns.ACL().Denied(acl.AdminRead, acl.SignatureMismatch); n != 0 {
		t.Fatalf("the wrong secret's request was checked (%d signature mismatches): the body was not refused first", n)
	}
	if resp := nstest.Invoke(t, signedClient(admin), get(nil)); resp.Code != remoting.QUERY_NOT_FOUND {
		t.Fatalf("signed GET_KV_CONFIG without a body: code %d %q", resp.Code, resp.Remark)
	}
	nstest.Register(t, signedClient(admin), nstest.BrokerB) // a code that takes a body
}
