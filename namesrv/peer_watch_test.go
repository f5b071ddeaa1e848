package namesrv

import (
	"slices"
	"strconv"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// TestPeerListAndAddressServerAnswer: peerNamesrvAddrs are the peers and
// follow this server in the address server's answer; without them the
// peers are addressServerList less this server, named by IP or by a name
// that resolves to it (a second server on another port of the host is a
// peer), and the answer is addressServerList as given.
func TestPeerListAndAddressServerAnswer(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.PeerNamesrvAddrs = "10.0.0.9:9876; 10.0.0.10:9876" })
	if got := s.ns.peerList(); !slices.Equal(got, []string{"10.0.0.9:9876", "10.0.0.10:9876"}) {
		t.Fatalf("peers %q", got)
	}
	if got, want := s.ns.nameServerList(), s.addr()+";10.0.0.9:9876;10.0.0.10:9876"; got != want {
		t.Fatalf("address server answer %q, want %q", got, want)
	}

	port, ok := nstest.FreePorts(0, 1)
	if !ok {
		t.Skip("no two free loopback ports")
	}
	self, next := strconv.Itoa(port), strconv.Itoa(port+1)
	list := "127.0.0.1:" + self + ";127.0.0.1:1;localhost:" + self + ";127.0.0.1:" + next
	s = startServer(t, func(cfg *config.Config) { cfg.ListenPort, cfg.AddressServerList = port, list })
	if got := s.ns.peerList(); !slices.Equal(got, []string{"127.0.0.1:1", "127.0.0.1:" + next}) {
		t.Fatalf("peers %q of addressServerList %q", got, list)
	}
	if got := s.ns.nameServerList(); got != list {
		t.Fatalf("address server answer %q, want addressServerList %q", got, list)
	}
}
