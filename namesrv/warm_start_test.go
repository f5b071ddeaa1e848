package namesrv

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/warmstart"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

const (
	warmKey    = "warmPeerKey"
	warmSecret = "warmPeerSecret"
)

func withPeerKeys(peers string) func(cfg *config.Config) {
	return func(cfg *config.Config) {
		cfg.PeerNamesrvAddrs, cfg.PeerAccessKey, cfg.PeerSecretKey = peers, warmKey, warmSecret
	}
}

var warmBrokers = []nstest.Broker{
	{Cluster: "warmC", Name: "warm-a", Addr: "127.0.0.1:20911", HAAddr: "127.0.0.1:20912", ID: 0,
		Topics: map[string]int32{"WarmT1": 8, "WarmT2": 4}, Version: route.DataVersion{Counter: 2, Timestamp: 5}},
	{Cluster: "warmC", Name: "warm-b", Addr: "127.0.0.1:20921", HAAddr: "127.0.0.1:20922", ID: 0,
		Topics: map[string]int32{"WarmT2": 4, "WarmT3": 2}, Version: route.DataVersion{Counter: 1, Timestamp: 5}},
}

func TestWarmStartServesThePeersRoutesFromTheFirstQuery(t *testing.T) {
	peer := startServer(t, withPeerKeys("127.0.0.1:1"))
	for _, b := range warmBrokers {
		nstest.MustCode(t, nstest.Register(t, peer.client, b), remoting.SUCCESS)
	}
	s := startServer(t, func(cfg *config.Config) {
		withPeerKeys(peer.addr())(cfg)
		cfg.ReadinessWarmUpMillis = 600_000
	})
	for _, topic := range []string{"WarmT1", "WarmT2", "WarmT3"} {
		resp := nstest.RouteQuery(t, s.client, topic, route.VersionV4_9_4)
		nstest.MustCode(t, resp, remoting.SUCCESS)
		want := nstest.DecodeRoute(t, nstest.RouteQuery(t, peer.client, topic, route.VersionV4_9_4))
		if got := nstest.DecodeRoute(t, resp); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("route of %s = %+v, peer's %+v", topic, got, want)
		}
	}
	if ready, why := s.ns.Ready(); !ready {
		t.Fatalf("not ready after a warm start: %s", why)
	}
	// The broker's registration makes its entry its own.
	nstest.MustCode(t, nstest.Register(t, s.client, warmBrokers[0]), remoting.SUCCESS)
	if got := s.ns.routes.BorrowedSources()[peer.addr()]; got != 1 {
		t.Fatalf("borrowed after warm-a registered = %d, want 1", got)
	}
}

func TestPeerRouteStateIsRefusedToStrangers(t *testing.T) {
	s := startServer(t, withPeerKeys("127.0.0.1:1"))
	noKeys := startServer(t, nil)
	cases := map[string]struct {
		server *testServer
		sign   aclsign.Credentials
	}{
		"unsigned":                   {s, aclsign.Credentials{}},
		"wrong secret":               {s, aclsign.Credentials{AccessKey: warmKey, SecretKey: "guess"}},
		"another account":            {s, aclsign.Credentials{AccessKey: "rocketmq2", SecretKey: warmSecret}},
		"a server without peer keys": {noKeys, aclsign.Credentials{AccessKey: warmKey, SecretKey: warmSecret}},
	}
	for name, c := range cases {
		req := remoting.NewRequest(warmstart.Code, map[string]string{"part": warmstart.PartBrokers}, nil)
		if !c.sign.Empty() {
			aclsign.Sign(req.ExtFields, nil, c.sign)
		}
		if resp := nstest.Invoke(t, c.server.client, req); resp.Code != remoting.NO_PERMISSION {
			t.Errorf("%s: code %d %q, want 16", name, resp.Code, resp.Remark)
		}
	}
	req := remoting.NewRequest(warmstart.Code, map[string]string{"part": warmstart.PartBrokers}, nil)
	aclsign.Sign(req.ExtFields, nil, aclsign.Credentials{AccessKey: warmKey, SecretKey: warmSecret})
	nstest.MustCode(t, nstest.Invoke(t, s.client, req), remoting.SUCCESS)
}

func TestWarmStartWithNoPeerAnsweringStartsEmpty(t *testing.T) {
	// A listener that never answers: the start gives it up after
	// peerWarmStartTimeoutMillis.
	silent := silentListener(t)
	began := time.Now()
	s := startServer(t, func(cfg *config.Config) {
		withPeerKeys(silent)(cfg)
		cfg.PeerWarmStartTimeoutMillis = 500
		cfg.ReadinessWarmUpMillis = 600_000
	})
	if took := time.Since(began); took < 500*time.Millisecond {
		t.Fatalf("started in %s, before the warm start's timeout", took)
	}
	if s.topicExists("WarmT1") || len(s.ns.routes.BorrowedSources()) != 0 {
		t.Fatal("something borrowed from a silent peer")
	}
	if ready, _ := s.ns.Ready(); ready {
		t.Fatal("ready at once though nothing was borrowed: the warm-up must stay")
	}
}

// silentListener accepts connections and never answers on them.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}
