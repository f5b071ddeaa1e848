package warmstart

import (
	"context"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// TestKeeperDropsWhatThePeerNoLongerHas: the keeper re-polls the peer and
// drops the borrowed broker it unregistered, then stops once nothing is
// borrowed any more.
func TestKeeperDropsWhatThePeerNoLongerHas(t *testing.T) {
	routes := peerRoutes(t, 2, 10)
	peer := startFakePeer(t, routes, 1<<20)
	m := route.NewManager(route.Config{})
	res := Start{Peers: []string{peer.addr}, Routes: m, Deadline: testNow.Add(time.Hour),
		Now: func() time.Time { return testNow }, Timeout: 20 * time.Second}.Run(context.Background())
	if len(res.Answered) != 1 || m.BorrowedSources()[peer.addr] != 2 {
		t.Fatalf("result %+v, borrowed %v", res, m.BorrowedSources())
	}
	k := StartKeeper(Dialer{}, m, 20*time.Millisecond)
	defer k.Stop()

	routes.ConnectionClosed(1) // b0 leaves the peer
	waitFor(t, "b0 dropped", func() bool { return m.BorrowedSources()[peer.addr] == 1 })
	if got := m.ClusterInfo().BrokerAddrTable; len(got) != 1 || got["b1"].BrokerName != "b1" {
		t.Fatalf("brokers left %+v", got)
	}
	routes.ConnectionClosed(2)
	waitFor(t, "nothing borrowed, the keeper stopped", func() bool {
		select {
		case <-k.stopped:
			return len(m.BorrowedSources()) == 0 && len(m.AllTopicList().TopicList) == 0
		default:
			return false
		}
	})
}

// TestKeeperKeepsEntriesOfAPeerThatDoesNotAnswer: a peer that refuses
// drops nothing (the deadline still bounds the entries).
func TestKeeperKeepsEntriesOfAPeerThatDoesNotAnswer(t *testing.T) {
	routes := peerRoutes(t, 2, 10)
	peer := startFakePeer(t, routes, 1<<20)
	m := route.NewManager(route.Config{})
	Start{Peers: []string{peer.addr}, Routes: m, Deadline: testNow.Add(time.Hour),
		Now: func() time.Time { return testNow }, Timeout: 20 * time.Second}.Run(context.Background())
	peer.refuse.Store(true)
	routes.ConnectionClosed(1)
	before := peer.asked.Load()
	k := StartKeeper(Dialer{}, m, 10*time.Millisecond)
	waitFor(t, "three re-polls", func() bool { return peer.asked.Load() >= before+3 })
	k.Stop()
	if got := m.BorrowedSources()[peer.addr]; got != 2 {
		t.Fatalf("borrowed = %d after re-polls a refusing peer answered, want 2", got)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
