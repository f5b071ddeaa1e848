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
