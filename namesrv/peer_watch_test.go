package namesrv

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
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

// TestPeerChecksSignedForAPeerWithACL: a peer with aclEnable and
// aclAnonymousRouteRead=false refuses the unsigned checks (down, with its
// NO_PERMISSION answer), and answers the ones signed with peerAccessKey and
// peerSecretKey, an account without the admin flag (up, routes agreeing).
func TestPeerChecksSignedForAPeerWithACL(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte("accounts:\n  - accessKey: peerKey1\n    secretKey: peerSecret1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	peer := startServer(t, func(cfg *config.Config) {
		cfg.AclEnable, cfg.AclFile, cfg.AclAnonymousRouteRead = true, file, false
	})
	peerAddr := peer.addr()
	statusOf := func(s *testServer, ok func(up bool, err string) bool) error {
		for _, st := range s.ns.obs.peers.Statuses() {
			if st.Addr == peerAddr && ok(st.Up, st.Error) {
				return nil
			}
		}
		return fmt.Errorf("peers %+v", s.ns.obs.peers.Statuses())
	}

	unsigned := startServer(t, func(cfg *config.Config) { cfg.PeerNamesrvAddrs = peerAddr })
	eventually(t, "the unsigned checks refused", func() error {
		return statusOf(unsigned, func(up bool, err string) bool {
			return !up && strings.Contains(err, "refused with code "+strconv.Itoa(int(remoting.NO_PERMISSION)))
		})
	})

	signed := startServer(t, func(cfg *config.Config) {
		cfg.PeerNamesrvAddrs, cfg.PeerAccessKey, cfg.PeerSecretKey = peerAddr, "peerKey1", "peerSecret1"
	})
	eventually(t, "the signed checks answered", func() error {
		return statusOf(signed, func(up bool, err string) bool { return up && err == "" })
	})
	if got := signed.ns.obs.peers.Statuses()[0]; !got.RoutesAgree || got.Topics != 0 {
		t.Fatalf("signed check of the ACL peer: %+v", got)
	}
	// The secret is listed nowhere; the access key is.
	wire := signed.call(t, remoting.GET_NAMESRV_CONFIG, nil, nil)
	_, side := httpGet(t, signed, "/v1/config")
	for what, text := range map[string]string{"GET_NAMESRV_CONFIG": string(wire.Body), "/v1/config": side} {
		if strings.Contains(text, "peerSecret1") || !strings.Contains(text, "peerKey1") {
			t.Errorf("%s lists the secret or not the access key: %s", what, text)
		}
	}
}
