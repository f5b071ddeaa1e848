package node

import (
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"
)

// fakeRaft is the part of raft the silence watch reads, set by the test.
type fakeRaft struct {
	state   raft.RaftState
	leader  raft.ServerAddress
	contact time.Time
	hb      time.Duration
	reloads []time.Duration // the heartbeat timeouts reloaded, in order
}

func (f *fakeRaft) State() raft.RaftState { return f.state }
func (f *fakeRaft) LeaderWithID() (raft.ServerAddress, raft.ServerID) {
	return f.leader, raft.ServerID(f.leader)
}
func (f *fakeRaft) LastContact() time.Time { return f.contact }
func (f *fakeRaft) ReloadableConfig() raft.ReloadableConfig {
	return raft.ReloadableConfig{HeartbeatTimeout: f.hb, ElectionTimeout: f.hb}
}
func (f *fakeRaft) ReloadConfig(rc raft.ReloadableConfig) error {
	f.reloads = append(f.reloads, rc.HeartbeatTimeout)
	f.hb = rc.HeartbeatTimeout
	return nil
}

func TestSilenceWatchWakesRaftOncePerSilenceAfterTimeoutAndStagger(t *testing.T) {
	start := time.Unix(1000, 0)
	f := &fakeRaft{state: raft.Follower, leader: "n0", contact: start, hb: time.Second}
	now := start
	w := newSilenceWatch(f, time.Second, func() int { return 2 }, func() bool { return false }, logrus.NewEntry(logrus.New()))
	w.now = func() time.Time { return now }

	// Rank 2 waits the timeout plus three tenths of it (a step for a stale
	// log to look first).
	for _, at := range []time.Duration{0, 900 * time.Millisecond, time.Second, 1299 * time.Millisecond} {
		now = start.Add(at)
		if w.check() {
			t.Fatalf("looked %v after the last contact, before 1.3 s", at)
		}
	}
	now = start.Add(1300 * time.Millisecond)
	if !w.check() {
		t.Fatal("did not look 1.3 s after the last contact")
	}
	if len(f.reloads) != 2 || f.reloads[0] != time.Second-time.Millisecond || f.reloads[1] != time.Second {
		t.Fatalf("reloads %v: want the timeout shortened by 1 ms, then put back", f.reloads)
	}
	now = start.Add(3 * time.Second)
	if w.check() {
		t.Fatal("looked twice for one silence")
	}
	// A new contact, then silence again: a new look.
	f.contact = start.Add(4 * time.Second)
	now = start.Add(5400 * time.Millisecond)
	if !w.check() || len(f.reloads) != 4 {
		t.Fatalf("no look for the second silence: reloads %v", f.reloads)
	}
}

func TestSilenceWatchLeavesLeadersCandidatesAndLeaderlessFollowersAlone(t *testing.T) {
	start := time.Unix(1000, 0)
	for name, f := range map[string]*fakeRaft{
		"leader":    {state: raft.Leader, leader: "n0", contact: start, hb: time.Second},
		"candidate": {state: raft.Candidate, leader: "", contact: start, hb: time.Second},
		"no leader": {state: raft.Follower, leader: "", contact: start, hb: time.Second},
		"shutdown":  {state: raft.Shutdown, leader: "n0", contact: start, hb: time.Second},
		"never":     {state: raft.Follower, leader: "n0", hb: time.Second},
	} {
		w := newSilenceWatch(f, time.Second, func() int { return 0 }, func() bool { return false }, logrus.NewEntry(logrus.New()))
		w.now = func() time.Time { return start.Add(time.Minute) }
		if w.check() || len(f.reloads) != 0 {
			t.Errorf("%s: looked (reloads %v)", name, f.reloads)
		}
	}
}

// A follower whose log is stale (its last entry older than its term) looks
// first, at the timeout, whatever its rank; rank 0 with a current log looks
// a step later (1.1 s).
func TestSilenceWatchLetsAStaleLogLookFirst(t *testing.T) {
	start := time.Unix(1000, 0)
	for _, c := range []struct {
		stale bool
		at    time.Duration
	}{{true, time.Second}, {false, 1100 * time.Millisecond}} {
		f := &fakeRaft{state: raft.Follower, leader: "n0", contact: start, hb: time.Second}
		now := start.Add(c.at - time.Millisecond)
		rank := 2
		if !c.stale {
			rank = 0
		}
		w := newSilenceWatch(f, time.Second, func() int { return rank }, func() bool { return c.stale }, logrus.NewEntry(logrus.New()))
		w.now = func() time.Time { return now }
		if w.check() {
			t.Fatalf("stale %t, rank %d: looked before %v", c.stale, rank, c.at)
		}
		now = start.Add(c.at)
		if !w.check() {
			t.Fatalf("stale %t, rank %d: did not look at %v", c.stale, rank, c.at)
		}
	}
}

// staleLog reads a live node's raft: a follower of a group that has
// committed its leader's first entry is not stale.
func TestStaleLogIsFalseOnACaughtUpFollower(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	follower := g.svcs[(leader+1)%3].Node
	waitFor(t, "the follower's log in the leader's term", func() bool { return !follower.staleLog() })
}

func TestMemberRankIsThePlaceInSortedIDs(t *testing.T) {
	ids := []string{"n2", "n0", "n1"}
	for id, want := range map[string]int{"n0": 0, "n1": 1, "n2": 2, "stranger": 0} {
		if got := memberRank(ids, id); got != want {
			t.Errorf("rank of %s = %d, want %d", id, got, want)
		}
	}
}

// TestLeaseLeavesRoomForTheSilenceWatch: the watch shortens the heartbeat
// timeout by 1 ms, which hashicorp refuses if the lease is longer.
func TestLeaseLeavesRoomForTheSilenceWatch(t *testing.T) {
	n := startGroup(t, 1, nil).svcs[0].Node
	rc := n.raft.ReloadableConfig()
	rc.HeartbeatTimeout -= time.Millisecond
	if err := n.raft.ReloadConfig(rc); err != nil {
		t.Fatalf("the watch's shorter timeout refused: %v", err)
	}
}
