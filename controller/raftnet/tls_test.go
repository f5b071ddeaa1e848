package raftnet

import (
	"crypto/tls"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// dialer is a Stream of the group (or of another CA) used as a client.
func dialer(t *testing.T, files *TLSFiles) *Stream {
	t.Helper()
	s, _, _ := listen(t, files)
	return s
}

func groupFiles(t *testing.T, g *testcerts.Group, i int) *TLSFiles {
	return &TLSFiles{CertPath: g.Certs[i], KeyPath: g.Keys[i], TrustCertPath: g.CACert}
}

func TestMutualTLSAcceptsTheGroupAndRefusesTheRest(t *testing.T) {
	g, err := testcerts.WriteGroup(t.TempDir(), 2)
	if err != nil {
		t.Fatal(err)
	}
	other, err := testcerts.WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	s, r, accepted := listen(t, groupFiles(t, g, 0))

	// A member dials and is accepted; bytes go both ways under TLS.
	c, err := dialer(t, groupFiles(t, g, 1)).Dial(raft.ServerAddress(s.Addr().String()), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*tls.Conn); !ok {
		t.Fatalf("dialed a %T, want TLS", c)
	}
	c.Write([]byte("ping"))
	var got net.Conn
	select {
	case got = <-accepted:
	case <-time.After(20 * time.Second):
		t.Fatal("the member's connection was not accepted")
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(got, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q %v", buf, err)
	}

	// Plain TCP from a peer's host: refused as tls.
	plain := dialFrom(t, "127.0.0.1", s.Addr().String())
	plain.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	waitFor(t, "the plain connection refused", func() bool { return r.get(ReasonTLS) == 1 })

	// A certificate of another CA: refused as tls; the client learns it.
	_, err = dialer(t, groupFiles(t, other, 0)).Dial(raft.ServerAddress(s.Addr().String()), 10*time.Second)
	if err == nil {
		t.Fatal("a dialer trusting another CA completed the handshake")
	}
	strangerCert, err := other.Pair(0)
	if err != nil {
		t.Fatal(err)
	}
	// A client that trusts the group's CA but shows another CA's
	// certificate: the server refuses it.
	tc, err := tls.Dial("tcp", s.Addr().String(), &tls.Config{RootCAs: g.CAPool, ServerName: "127.0.0.1", Certificates: []tls.Certificate{strangerCert}})
	if err == nil {
		defer tc.Close()
		readsNothing(t, tc)
	}
	waitFor(t, "the other CA's certificate refused", func() bool { return r.get(ReasonTLS) == 3 })
	select {
	case c := <-accepted:
		t.Fatalf("%s reached Accept", c.RemoteAddr())
	default:
	}
}

// A connection that never starts its handshake does not hold up a member's.
func TestStalledHandshakeDoesNotHoldOthers(t *testing.T) {
	g, err := testcerts.WriteGroup(t.TempDir(), 2)
	if err != nil {
		t.Fatal(err)
	}
	s, r, accepted := listen(t, groupFiles(t, g, 0))
	dialFrom(t, "127.0.0.1", s.Addr().String()) // silent
	c, err := dialer(t, groupFiles(t, g, 1)).Dial(raft.ServerAddress(s.Addr().String()), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case got := <-accepted:
		got.Close()
	case <-time.After(20 * time.Second):
		t.Fatal("the member's connection was not accepted")
	}
	if n := r.get(ReasonTLS); n != 0 {
		t.Fatalf("%d refusals before the member was accepted: the silent connection's handshake ran out first", n)
	}
}

// The dialing side verifies the server's chain: a server of another CA is
// refused although the host name would match.
func TestDialRefusesAServerOfAnotherCA(t *testing.T) {
	g, err := testcerts.WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	other, err := testcerts.WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	server, _, _ := listen(t, &TLSFiles{CertPath: other.Certs[0], KeyPath: other.Keys[0], TrustCertPath: g.CACert})
	if _, err := dialer(t, groupFiles(t, g, 0)).Dial(raft.ServerAddress(server.Addr().String()), 10*time.Second); err == nil {
		t.Fatal("dialed a server whose certificate is another CA's")
	}
}

func TestListenNamesTheBadTLSFile(t *testing.T) {
	g, err := testcerts.WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		files TLSFiles
		key   string
	}{
		{TLSFiles{CertPath: g.CACert + ".missing", KeyPath: g.Keys[0], TrustCertPath: g.CACert}, "controllerRaftTlsCertPath"},
		{TLSFiles{CertPath: g.Certs[0], KeyPath: g.Keys[0], TrustCertPath: g.Keys[0]}, "controllerRaftTlsTrustCertPath"},
	} {
		s, err := Listen(Options{Addr: "127.0.0.1:0", TLS: &tc.files, Log: testlog.Discard()})
		if err == nil {
			s.Close()
			t.Fatalf("%+v accepted", tc.files)
		}
		if !strings.Contains(err.Error(), tc.key) {
			t.Errorf("error %q does not name %s", err, tc.key)
		}
	}
}
