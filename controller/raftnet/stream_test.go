package raftnet

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// refusals counts Refused calls by reason.
type refusals struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *refusals) add(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[reason]++
}

func (r *refusals) get(reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[reason]
}

// listen starts a Stream on a free 127.0.0.1 port whose only peer host is
// 127.0.0.1, and a goroutine feeding what it accepts to the channel.
func listen(t *testing.T, files *TLSFiles) (*Stream, *refusals, chan net.Conn) {
	t.Helper()
	r := &refusals{}
	s, err := Listen(Options{Addr: "127.0.0.1:0", PeerHosts: []string{"127.0.0.1"}, TLS: files, Refused: r.add, Log: testlog.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := s.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	t.Cleanup(func() {
		s.Close()
		for {
			select {
			case c := <-accepted:
				c.Close()
			default:
				return
			}
		}
	})
	return s, r, accepted
}

// dialFrom connects to addr from source address src (Linux routes all of
// 127/8 to lo; the test is skipped where 127.0.0.2 cannot be bound).
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if src != "127.0.0.1" {
			t.Skipf("cannot dial from %s: %v", src, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// readsNothing says the connection ends without a byte for the reader.
func readsNothing(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, err := c.Read(make([]byte, 64))
	var ne net.Error
	if n != 0 || err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		t.Fatalf("read %d bytes, %v: want the connection closed without an answer", n, err)
	}
}

func TestConnectionFromAStrangerIsClosedAndCounted(t *testing.T) {
	s, r, accepted := listen(t, nil)
	stranger := dialFrom(t, "127.0.0.2", s.Addr().String())
	stranger.Write([]byte{0, 1, 2, 3}) // an rpc type byte and more: never read
	readsNothing(t, stranger)
	waitFor(t, "the refusal counted", func() bool { return r.get(ReasonNotAPeer) == 1 })

	peer := dialFrom(t, "127.0.0.1", s.Addr().String())
	var got net.Conn
	select {
	case got = <-accepted:
	case <-time.After(20 * time.Second):
		t.Fatal("a peer's connection was not accepted")
	}
	if got.RemoteAddr().String() != peer.LocalAddr().String() {
		t.Fatalf("accepted %s, the peer is %s (the stranger's reached Accept)", got.RemoteAddr(), peer.LocalAddr())
	}
	peer.Write([]byte("ping"))
	buf := make([]byte, 4)
	if _, err := io.ReadFull(got, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q %v", buf, err)
	}
}

func TestListenBindsTheGivenHostOnly(t *testing.T) {
	s, _, _ := listen(t, nil)
	addr := s.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.ParseIP("127.0.0.1")) {
		t.Fatalf("bound %s, want 127.0.0.1", addr)
	}
	if c, err := net.DialTimeout("tcp", (&net.TCPAddr{IP: net.ParseIP("127.0.0.2"), Port: addr.Port}).String(), 10*time.Second); err == nil {
		c.Close()
		t.Fatal("the port answers on 127.0.0.2 as well")
	}
	if s, err := Listen(Options{Addr: "0.0.0.0:0", Log: testlog.Discard()}); err == nil {
		s.Close()
		t.Fatal("an unspecified host was bound")
	}
}

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
