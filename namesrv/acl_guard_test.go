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
	s, _ := aclServerWith(t, true)
	return s
}

// aclAccounts is aclServer's accounts file: one admin account.
const aclAccounts = "accounts:\n  - accessKey: adminKey1\n    secretKey: adminSecret1\n    admin: true\n"

// aclServerWith is aclServer with aclAnonymousRouteRead as given; it also
// returns the accounts file's path.
func aclServerWith(t *testing.T, anonymousRouteRead bool) (*testServer, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(aclAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	return startServer(t, func(cfg *config.Config) {
		cfg.AclEnable, cfg.AclFile, cfg.AclAnonymousRouteRead = true, file, anonymousRouteRead
	}), file
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

// TestSignedRouteReadsVerifiedOncePerConnection: the same signed route
// query on one connection is verified once (then matched by its bytes, on
// the fast path), once more on another connection, and checked afresh
// after the accounts file reloads: an account removed is refused at once,
// and every refusal is checked again, never remembered.
func TestSignedRouteReadsVerifiedOncePerConnection(t *testing.T) {
	s, file := aclServerWith(t, false)
	admin := aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "adminSecret1"}
	signedClient := func(cred aclsign.Credentials) *remoting.Client {
		c := remoting.NewClient(s.addr(), remoting.ClientConfig{Sign: aclsign.Signer(cred)})
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	first := signedClient(admin)
	nstest.Register(t, first, nstest.BrokerB)
	topic := nstest.BrokerB.TopicNames()[0]
	checks := s.ns.ACL().SignatureChecks()
	for range 5 {
		data := nstest.DecodeRoute(t, nstest.RouteQuery(t, first, topic, remoting.CurrentVersion))
		if len(data.BrokerDatas) != 1 {
			t.Fatalf("route of %s: %+v", topic, data)
		}
	}
	if n := s.ns.ACL().SignatureChecks() - checks; n != 1 {
		t.Fatalf("5 same signed queries on one connection: %d signature checks, want 1", n)
	}
	other := signedClient(admin)
	for range 3 {
		nstest.MustCode(t, nstest.RouteQuery(t, other, topic, remoting.CurrentVersion), remoting.SUCCESS)
	}
	if n := s.ns.ACL().SignatureChecks() - checks; n != 2 {
		t.Fatalf("then 3 on another connection: %d signature checks in all, want 2", n)
	}
	wrong := signedClient(aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "notTheSecret"})
	for range 3 {
		nstest.MustCode(t, nstest.RouteQuery(t, wrong, topic, remoting.CurrentVersion), remoting.NO_PERMISSION)
	}
	if n := s.ns.ACL().Denied(acl.RouteRead, acl.SignatureMismatch); n != 3 {
		t.Fatalf("3 wrongly signed queries: %d signature mismatches counted, want 3 (a refusal is never remembered)", n)
	}
	loads := s.ns.ACL().Reloads()
	removed := "accounts:\n  - accessKey: otherKey1\n    secretKey: otherSecret1\n    admin: true\n"
	if err := os.WriteFile(file, []byte(removed), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the accounts file reloaded", func() error {
		if s.ns.ACL().Reloads() == loads {
			return errStillThere
		}
		return nil
	})
	for range 3 {
		nstest.MustCode(t, nstest.RouteQuery(t, first, topic, remoting.CurrentVersion), remoting.NO_PERMISSION)
	}
	// (an unknown access key is counted as a signature mismatch)
	if n := s.ns.ACL().Denied(acl.RouteRead, acl.SignatureMismatch); n != 6 {
		t.Fatalf("then 3 queries of the removed account: %d refusals counted in all, want 6", n)
	}
	unsigned := nstest.NewClient(t, s.addr())
	for range 2 { // aclAnonymousRouteRead=false: the fast path serves no unsigned query
		nstest.MustCode(t, nstest.RouteQuery(t, unsigned, topic, remoting.CurrentVersion), remoting.NO_PERMISSION)
	}
	if n := s.ns.ACL().Denied(acl.RouteRead, acl.NotSigned); n != 2 {
		t.Fatalf("2 unsigned queries: %d refused as not signed, want 2", n)
	}
}
