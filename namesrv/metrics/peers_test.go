package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/namesrv/peers"
)

// TestPeerMetricsFollowTheChecks: a series per peer of the last checks, up
// 1 or 0; routes_agree and routes_healing only for the peers that are up.
func TestPeerMetricsFollowTheChecks(t *testing.T) {
	src := testSources()
	statuses := []PeerStatus{{Addr: "10.0.0.2:9876", Up: true}, {Addr: "10.0.0.3:9876"}, {Addr: "10.0.0.4:9876", Up: true, RoutesAgree: true, RoutesHealing: 2}}
	src.Peers = func() []PeerStatus { return statuses }
	m := New(src, nil, time.Unix(1000, 0))
	want := `
# HELP rocketmq_namesrv_peer_routes_agree 1 when the peer's broker addresses and topic names equal this server's but for differences younger than peerRoutesHealMillis (0: a difference lasts), for peers that are up only.
# TYPE rocketmq_namesrv_peer_routes_agree gauge
rocketmq_namesrv_peer_routes_agree{peer="10.0.0.2:9876"} 0
rocketmq_namesrv_peer_routes_agree{peer="10.0.0.4:9876"} 1
# HELP rocketmq_namesrv_peer_routes_healing Broker addresses and topics on one side only, with a peer that is up, first seen less than peerRoutesHealMillis ago: brokers registered on one NameServer and not yet on the other.
# TYPE rocketmq_namesrv_peer_routes_healing gauge
rocketmq_namesrv_peer_routes_healing{peer="10.0.0.2:9876"} 0
rocketmq_namesrv_peer_routes_healing{peer="10.0.0.4:9876"} 2
# HELP rocketmq_namesrv_peer_up 1 when the peer NameServer (peerNamesrvAddrs, or addressServerList without this server) answered the last check (its cluster table and topic list), 0 when not.
# TYPE rocketmq_namesrv_peer_up gauge
rocketmq_namesrv_peer_up{peer="10.0.0.2:9876"} 1
rocketmq_namesrv_peer_up{peer="10.0.0.3:9876"} 0
rocketmq_namesrv_peer_up{peer="10.0.0.4:9876"} 1
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "rocketmq_namesrv_peer_up", "rocketmq_namesrv_peer_routes_agree",
		"rocketmq_namesrv_peer_routes_healing"); err != nil {
		t.Error(err)
	}
	// The list follows the config: a peer removed has no series left.
	statuses = statuses[:1]
	if n := testutil.CollectAndCount(m.Registry, "rocketmq_namesrv_peer_up"); n != 1 {
		t.Errorf("%d peer_up series after the list shrank to one", n)
	}
}

// TestPeerKVAgreeFollowsTheExchanges: kv_agree per peer of the last KV
// exchange, none for a peer without one or whose exchange failed.
func TestPeerKVAgreeFollowsTheExchanges(t *testing.T) {
	src := testSources()
	src.Peers = func() []PeerStatus {
		return []PeerStatus{
			{Addr: "10.0.0.2:9876", Up: true, KV: &peers.KVStatus{Agree: true}},
			{Addr: "10.0.0.3:9876", Up: true, KV: &peers.KVStatus{NewerHere: 2}},
			{Addr: "10.0.0.4:9876", KV: &peers.KVStatus{Error: "connection refused"}},
			{Addr: "10.0.0.5:9876", Up: true},
		}
	}
	m := New(src, nil, time.Unix(1000, 0))
	want := `
# HELP rocketmq_namesrv_peer_kv_agree 1 when the last KV config exchange with the peer ended with both stores' digests equal (every key's version and value), 0 when not; no series when the exchange failed or none was done (no peerAccessKey).
# TYPE rocketmq_namesrv_peer_kv_agree gauge
rocketmq_namesrv_peer_kv_agree{peer="10.0.0.2:9876"} 1
rocketmq_namesrv_peer_kv_agree{peer="10.0.0.3:9876"} 0
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "rocketmq_namesrv_peer_kv_agree"); err != nil {
		t.Error(err)
	}
}
