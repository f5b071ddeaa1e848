package raftnet

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// A peer listed by name (localhost, resolved by the system) is accepted;
// internal/hostset tests the resolution itself.
func TestConnectionFromAPeerListedByNameIsAccepted(t *testing.T) {
	r := &refusals{}
	s, err := Listen(Options{Addr: "127.0.0.1:0", PeerHosts: []string{"localhost"}, Refused: r.add, Log: testlog.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := s.Accept(); err == nil {
			accepted <- c
		}
	}()
	peer := dialFrom(t, "127.0.0.1", s.Addr().String())
	select {
	case got := <-accepted:
		defer got.Close()
		peer.Write([]byte("ping"))
		buf := make([]byte, 4)
		if _, err := io.ReadFull(got, buf); err != nil || string(buf) != "ping" {
			t.Fatalf("read %q %v", buf, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the peer listed as localhost was not accepted (%d refused as not a peer)", r.get(ReasonNotAPeer))
	}
}

// SetPeerHosts follows the members: a connection from a host added online
// is taken, one from a host removed is refused from then on.
func TestSetPeerHostsTakesAnAddedHostAndRefusesARemovedOne(t *testing.T) {
	s, r, accepted := listen(t, nil)
	take := func(src string) bool {
		t.Helper()
		before := r.get(ReasonNotAPeer)
		dialFrom(t, src, s.Addr().String())
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
			select {
			case c := <-accepted:
				c.Close()
				return true
			case <-time.After(10 * time.Millisecond):
			}
			if r.get(ReasonNotAPeer) > before {
				return false
			}
		}
		t.Fatalf("a connection from %s was neither taken nor refused", src)
		return false
	}
	if take("127.0.0.2") {
		t.Fatal("127.0.0.2 taken before it was listed")
	}
	s.SetPeerHosts([]string{"127.0.0.1", "127.0.0.2"})
	if !take("127.0.0.2") {
		t.Fatal("127.0.0.2 refused after it was added")
	}
	s.SetPeerHosts([]string{"127.0.0.1"})
	if take("127.0.0.2") {
		t.Fatal("127.0.0.2 taken after it was removed")
	}
	if !take("127.0.0.1") {
		t.Fatal("127.0.0.1 refused though still listed")
	}
}
