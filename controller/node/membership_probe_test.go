package node

import (
	"testing"
)

// A node that must name a leader and knows none (a removed follower whose
// Raft forgot its leader before the members poll kept it) asks the
// members: learnLeader stores the serving leader, and Leader() names it
// once the node is removed. It asks nobody when it already knows one.
func TestLearnLeaderAsksTheMembersWhenNoneIsKnown(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	other := g.svcs[(leader+1)%3].Node
	c, _, err := other.configuration()
	if err != nil {
		t.Fatal(err)
	}
	other.lastLeader.Store(nil)
	other.learnLeader(c)
	got := other.lastLeader.Load()
	if want := g.addrs[leader]; got == nil || got.Addr != want || got.ID != g.cfgs[leader].ControllerDLegerSelfID {
		t.Fatalf("learnt leader %+v, want %s at %s", got, g.cfgs[leader].ControllerDLegerSelfID, want)
	}
	known := *got
	known.Addr = "127.0.0.1:1"
	other.lastLeader.Store(&known)
	other.learnLeader(c)
	if got := other.lastLeader.Load(); got.Addr != known.Addr {
		t.Fatalf("a known leader was replaced: %+v", got)
	}
}
