package node

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// beatEvery is the period of the tests' background heartbeats, and
// beatTimeout the timeout they announce: fifteen periods, so a starved
// machine (-race beside other builds) does not let a live broker expire.
const (
	beatEvery   = 200 * time.Millisecond
	beatTimeout = 3000
)

// beat heartbeats b (to the nodes it holds connections to) every beatEvery
// with the given timeout until the returned stop, or the test's end.
func beat(t *testing.T, b *ctltest.Broker, timeoutMillis int64) (stop func()) {
	t.Helper()
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		tick := time.NewTicker(beatEvery)
		defer tick.Stop()
		for {
			b.Heartbeat(t, 0, 0, timeoutMillis)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { close(done); <-over }) }
	t.Cleanup(stop)
	return stop
}

// beatingPair starts a 3-node group scanning every 200 ms and a set of two
// brokers heartbeating to every node with timeoutMillis, 1 the master, both
// in the in-sync set: an election on 1's silence would elect 2.
func beatingPair(t *testing.T, name string, timeoutMillis int64) (g *group, m, s *ctltest.Broker, stopM func()) {
	t.Helper()
	return beatingPairWith(t, name, timeoutMillis, nil, remoting.ClientConfig{})
}

// beatingPairWith is beatingPair with the nodes' configuration tweaked and
// the brokers' connections configured by client (their signature).
func beatingPairWith(t *testing.T, name string, timeoutMillis int64, tweak func(*config.Config), client remoting.ClientConfig) (g *group, m, s *ctltest.Broker, stopM func()) {
	t.Helper()
	g = startGroup(t, 3, tweak)
	leader := g.leader(t)
	m = ctltest.NewBrokerWith(t, "cluster-a", name, g.addrs, client)
	s = ctltest.NewBrokerWith(t, "cluster-a", name, g.addrs, client)
	m.Register(t)
	s.Register(t)
	stopM = beat(t, m, timeoutMillis)
	beat(t, s, timeoutMillis)
	waitFor(t, "both heartbeats on the leader", func() bool { return g.svcs[leader].Node.live.size() >= 2 })
	ctltest.MustCode(t, m.Elect(t), 0)
	ctltest.MustCode(t, m.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: name, MasterBrokerID: 1, MasterEpoch: 1},
		(&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode()), 0)
	return g, m, s, stopM
}

// addrsBut is every node's address but node keep's.
func (g *group) addrsBut(keep int) []string {
	var out []string
	for i, addr := range g.addrs {
		if i != keep {
			out = append(out, addr)
		}
	}
	return out
}

// holdMaster checks, for span, that the set keeps master 1 at epoch 1.
func holdMaster(t *testing.T, s *ctltest.Broker, span time.Duration) {
	t.Helper()
	for end := time.Now().Add(span); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if id, epoch, _ := masterOf(t, s); id != 1 || epoch != 1 {
			t.Fatalf("master %d at epoch %d, want 1 at 1: a live master was replaced", id, epoch)
		}
	}
}

// Issue 38 item 1: the master closes its connection to the leader (as a
// Java master does to a node after a request timeout) and then heartbeats
// to one follower only, as behind a load-balanced address: the leader asks
// the other nodes, takes the follower's heartbeat over and elects nobody,
// not at the close and not as the taken-over entries run out.
func TestMasterHeardByAFollowerOnlyIsNotReplaced(t *testing.T) {
	g, m, s, _ := beatingPair(t, "set-f", beatTimeout)
	leader := g.leader(t)
	m.CloseTo(g.addrsBut((leader + 1) % 3)...)
	holdMaster(t, s, 2*beatTimeout*time.Millisecond)
	key := controller.BrokerKey{ClusterName: "cluster-a", BrokerName: "set-f", BrokerID: 1}
	waitFor(t, "the leader to take the follower's heartbeat of the master over", func() bool {
		n := g.svcs[leader].Node
		n.live.mu.Lock()
		conn, held := n.live.connOf[key]
		n.live.mu.Unlock()
		return held && conn == adoptedConn && n.live.Alive("cluster-a", "set-f", 1)
	})
}

// The master silent for the whole group (connected, no heartbeat) is still
// replaced, after its timeout, once a quorum answered that nobody hears it.
func TestMasterSilentForTheWholeGroupIsReplaced(t *testing.T) {
	_, _, s, stopM := beatingPair(t, "set-w", beatTimeout)
	stopM()
	waitFor(t, "broker 2 elected", func() bool { id, _, _ := masterOf(t, s); return id == 2 })
	if id, epoch, sss := masterOf(t, s); id != 2 || epoch != 2 || fmt.Sprint(sss) != "[2]" {
		t.Fatalf("after the group stopped hearing the master: master %d epoch %d sss %v, want 2, 2, [2]", id, epoch, sss)
	}
}

// With ACL on, route reads signed only and the nodes without credentials,
// every question is refused: each refusal counts as an answer of a node that
// did not hear, so a master silent for the group is still replaced.
func TestRefusedQuestionsDoNotStopElections(t *testing.T) {
	acl := withACL(t, "")
	tweak := func(c *config.Config) { acl(c); c.AclAnonymousRouteRead = false }
	_, _, s, stopM := beatingPairWith(t, "set-r", beatTimeout, tweak, remoting.ClientConfig{Sign: aclsign.Signer(testAdmin)})
	stopM()
	waitFor(t, "broker 2 elected", func() bool { id, _, _ := masterOf(t, s); return id == 2 })
}

// With tls.server.mode=enforcing and the nodes' useTLS off, every node
// closes the plain connections of the questions: each such node is up and
// counts as an answer of a node that did not hear, so a master silent for
// the group is still replaced.
func TestPlainQuestionsToTLSPortsDoNotStopElections(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tweak := func(c *config.Config) {
		c.TLSServerMode, c.TLSServerCertPath, c.TLSServerKeyPath = portguard.TLSModeEnforcing, certs.ServerCert, certs.ServerKey
	}
	_, _, s, stopM := beatingPairWith(t, "set-p", beatTimeout, tweak, remoting.ClientConfig{TLS: certs.ClientTLS(false)})
	stopM()
	waitFor(t, "broker 2 elected", func() bool { id, _, _ := masterOf(t, s); return id == 2 })
}

// Issue 38 item 1, the grace: the master's connections to the followers
// close (as a Java master's do after a request timeout) and it heartbeats
// to the leader only, so the followers drop it; the leader stops and the
// master finds the new leader at once. The
// new leader, which lost the master as a follower and whose other node does
// not hear it either, waits the broker's heartbeat timeout before electing
// and hears it meanwhile: no election.
func TestNewLeaderGivesTheMasterAHeartbeatTimeoutToBeHeard(t *testing.T) {
	const timeout = 2 * beatTimeout
	// The grace as long as the timeout: a loaded -race run may take more
	// than the default 1.5 s from the new leader to the master's heartbeat.
	g, m, s, stopM := beatingPairWith(t, "set-g", timeout, func(c *config.Config) { c.LeaderGraceMillis = timeout }, remoting.ClientConfig{})
	leader := g.leader(t)
	m.CloseTo(g.addrsBut(leader)...)
	waitFor(t, "the followers to drop the master", func() bool {
		for i, svc := range g.svcs {
			if i != leader && svc.Node.live.Alive("cluster-a", "set-g", 1) {
				return false
			}
		}
		return true
	})
	stopM()
	g.stop(t, leader)
	next := g.leader(t)
	// The master again, on a connection to the new leader only.
	again := ctltest.NewBroker(t, "cluster-a", "set-g", []string{g.addrs[next]})
	again.ID, again.Addr = 1, m.Addr
	beat(t, again, timeout)
	waitFor(t, "the new leader to hear the master", func() bool { return g.svcs[next].Node.live.Alive("cluster-a", "set-g", 1) })
	// Past the grace, which began before the master was heard again.
	holdMaster(t, s, timeout*time.Millisecond+time.Second)
}

// 5020 is answered by any node from its own table: ages, not times, for
// the members it holds; the others left out; past the bound, refused.
func TestEveryNodeAnswersTheLivenessQuestionWithAges(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	follower := g.addrs[(leader+1)%3]
	b := ctltest.NewBroker(t, "cluster-a", "set-q", []string{follower})
	b.ID = 4
	b.Heartbeat(t, 2, 77, 60000)
	waitFor(t, "the heartbeat on the follower", func() bool { return g.svcs[(leader+1)%3].Node.live.size() == 1 })
	q := wire.BrokerLivenessRequest{Brokers: []wire.BrokerKeyJSON{{ClusterName: "cluster-a", BrokerName: "set-q", BrokerID: 4},
		{ClusterName: "cluster-a", BrokerName: "set-q", BrokerID: 5}}}
	client := nstest.NewClient(t, follower)
	resp := nstest.Invoke(t, client, remoting.NewRequest(wire.CodeGetBrokerLiveness, nil, q.Encode()))
	got, err := wire.DecodeBrokerLivenessResponse(resp.Body)
	if resp.Code != 0 || err != nil || len(got.Brokers) != 1 {
		t.Fatalf("answer %d %q %v: %+v", resp.Code, resp.Remark, err, got)
	}
	e := got.Brokers[0]
	// An age is under a minute here; a monotonic time would be the host's uptime.
	if e.BrokerID != 4 || e.AgeMillis < 0 || e.AgeMillis > 60000 || e.Epoch != 2 || e.MaxOffset != 77 || e.HeartbeatTimeoutMillis != 60000 || e.BrokerAddr != b.Addr {
		t.Fatalf("entry %+v", e)
	}
	var many wire.BrokerLivenessRequest
	for i := range wire.LivenessMaxKeys + 1 {
		many.Brokers = append(many.Brokers, wire.BrokerKeyJSON{ClusterName: "cluster-a", BrokerName: "set-q", BrokerID: int64(i)})
	}
	if resp := nstest.Invoke(t, client, remoting.NewRequest(wire.CodeGetBrokerLiveness, nil, many.Encode())); resp.Code != remoting.SYSTEM_ERROR {
		t.Fatalf("%d keys answered %d %q, want refused", len(many.Brokers), resp.Code, resp.Remark)
	}
}

func TestGraceIsATimeoutFromTheLeadButNotForACloseSeenAsLeader(t *testing.T) {
	n := &Node{leaderGrace: 60000}
	now := nowMillis()
	n.ledSince.Store(now)
	if left := n.graceLeft(electJob{trigger: triggerExpired, seenAt: now}, 5000); left <= 4000 || left > 5000 {
		t.Fatalf("an expiry just after the lead: %d ms left, want about 5000", left)
	}
	if left := n.graceLeft(electJob{trigger: triggerConnClosed, seenAt: now}, 5000); left != 0 {
		t.Fatalf("a close seen as leader: %d ms left, want none", left)
	}
	if left := n.graceLeft(electJob{trigger: triggerConnClosed, seenAt: now - 1}, 5000); left == 0 {
		t.Fatal("a close seen before the lead needs the grace")
	}
	n.ledSince.Store(now - 6000)
	if left := n.graceLeft(electJob{trigger: triggerInactiveMaster}, 5000); left != 0 {
		t.Fatalf("6 s after the lead: %d ms left", left)
	}
}

// The grace is controllerLeaderGraceMillis when the broker's timeout is
// longer: a dead master is elected for a heartbeat period after the lead,
// not a heartbeat timeout after it.
func TestGraceIsTheLeaderGraceWhenShorterThanTheTimeout(t *testing.T) {
	n := &Node{leaderGrace: config.DefaultLeaderGraceMillis}
	now := nowMillis()
	n.ledSince.Store(now)
	if left := n.graceLeft(electJob{trigger: triggerExpired, seenAt: now}, 10000); left > config.DefaultLeaderGraceMillis || left < config.DefaultLeaderGraceMillis-1000 {
		t.Fatalf("a 10 s timeout just after the lead: %d ms left, want about %d", left, config.DefaultLeaderGraceMillis)
	}
	n.ledSince.Store(now - config.DefaultLeaderGraceMillis)
	if left := n.graceLeft(electJob{trigger: triggerInactiveMaster}, 10000); left != 0 {
		t.Fatalf("the grace past: %d ms left", left)
	}
}

func TestCloseIsRecheckedOnlyWhenOthersHoldHeartbeatsFromBeforeIt(t *testing.T) {
	master := controller.BrokerKey{ClusterName: "c", BrokerName: "b", BrokerID: 1}
	now := nowMillis()
	answer := func(last int64) peerAnswer {
		return peerAnswer{id: "n1", entries: map[controller.BrokerKey]controller.HeartbeatEntry{
			master: {LastUpdateMillis: last, HeartbeatTimeoutMill: 10000}}}
	}
	closedAt := now - 100
	for _, c := range []struct {
		name    string
		answers []peerAnswer
		want    bool
	}{
		{"nobody holds it", []peerAnswer{{id: "n1"}}, false},
		{"held from before the close", []peerAnswer{answer(closedAt - 500)}, true},
		{"heard after the close", []peerAnswer{answer(closedAt - 500), answer(closedAt + 50)}, false},
		{"held but run out", []peerAnswer{answer(now - 20000)}, false},
	} {
		if got := heardOnlyBefore(c.answers, master, closedAt); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A slave heartbeating to one follower only (a load-balanced address): the
// leader's inactive-master scan takes its heartbeat over, so the master's
// in-sync set can take it in (the leader checks the members alive).
func TestLeaderTakesOverAMemberOnlyAFollowerHears(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	follower := (leader + 1) % 3
	m := ctltest.NewBroker(t, "cluster-a", "set-t", g.addrs)
	s := ctltest.NewBroker(t, "cluster-a", "set-t", g.addrs)
	m.Register(t)
	s.Register(t)
	beat(t, m, 60000)
	waitFor(t, "the master's heartbeat on the leader", func() bool { return g.svcs[leader].Node.live.size() >= 1 })
	ctltest.MustCode(t, m.Elect(t), 0)
	s.CloseTo(g.addrsBut(follower)...)
	beat(t, s, 60000)
	waitFor(t, "the in-sync set to take the slave in", func() bool {
		resp := m.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: "set-t", MasterBrokerID: 1, MasterEpoch: 1},
			(&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode())
		return resp.Code == 0
	})
	n := g.svcs[leader].Node
	n.live.mu.Lock()
	conn, held := n.live.connOf[controller.BrokerKey{ClusterName: "cluster-a", BrokerName: "set-t", BrokerID: 2}]
	n.live.mu.Unlock()
	if !held || conn != adoptedConn {
		t.Fatalf("the leader holds the slave %v on connection %d, want taken over", held, conn)
	}
}
