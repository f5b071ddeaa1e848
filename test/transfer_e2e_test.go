package test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
)

// transferLine reads one "#Key\tvalue" line of transferControllerLeader.
func transferLine(t *testing.T, out, key string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^#` + key + `\t(.*)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no #%s in %q", key, out)
	}
	return m[1]
}

// The real mqadmin against a real 3-node cmd/controller group: asked of a
// follower, transferControllerLeader moves the lead to -t and exits 0 once
// that node serves, printing the old and new leader and the window; with
// no -t the lead moves to another node; an unknown id exits 1 with 2005.
// The set's master and epoch stay.
func TestTransferControllerLeaderCommand(t *testing.T) {
	g, old, b1 := groupWithMaster(t, "set-t")

	target := (old + 1) % 3
	follower := g.addrs[(old+2)%3]
	out := mustMqadmin(t, "transferControllerLeader", "-a", follower, "-t", fmt.Sprintf("n%d", target))
	if transferLine(t, out, "OldLeaderId") != fmt.Sprintf("n%d", old) || transferLine(t, out, "NewLeaderId") != fmt.Sprintf("n%d", target) ||
		transferLine(t, out, "NewLeaderAddress") != g.addrs[target] {
		t.Fatalf("transferControllerLeader:\n%s", out)
	}
	t.Logf("transfer n%d -> n%d: window %s ms", old, target, transferLine(t, out, "WindowMillis"))
	// The new leader serves when the command returns: no waiting here.
	if md, err := b1.Metadata(g.addrs[target]); err != nil || !md.IsLeader {
		t.Fatalf("n%d after the command: %+v %v", target, md, err)
	}
	md := mustMqadmin(t, "getControllerMetaData", "-a", follower)
	if !strings.Contains(md, fmt.Sprintf("#ControllerLeaderId\tn%d\n", target)) {
		t.Fatalf("getControllerMetaData after the transfer:\n%s", md)
	}
	out = mustMqadmin(t, "transferControllerLeader", "-a", g.addrs[old])
	if transferLine(t, out, "OldLeaderId") != fmt.Sprintf("n%d", target) || transferLine(t, out, "NewLeaderId") == fmt.Sprintf("n%d", target) {
		t.Fatalf("transferControllerLeader with no -t:\n%s", out)
	}
	if r := mqadmin(t, "transferControllerLeader", "-a", follower, "-t", "n9"); r.code != 1 || !strings.Contains(r.stderr, "CODE: 2005") ||
		!strings.Contains(r.stderr, "the voters are n0, n1, n2") {
		t.Fatalf("unknown target: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if id, epoch := masterOfSet(t, b1); id != "1" || epoch != 1 {
		t.Fatalf("after two transfers: master %s epoch %d, want 1 and 1", id, epoch)
	}
}

// SIGTERM to the leader's cmd/controller hands the lead over before the
// process exits: when it has exited another node already serves (no
// election timeout waited), and the set keeps its master and epoch.
func TestControllerSIGTERMHandsTheLeadOver(t *testing.T) {
	g, old, b1 := groupWithMaster(t, "set-s")
	if code := g.procs[old].Stop(); code != 0 {
		t.Fatalf("the leader exited %d", code)
	}
	serving := -1
	for i, addr := range g.addrs {
		if md, err := b1.Metadata(addr); i != old && err == nil && md.IsLeader {
			serving = i
		}
	}
	if serving < 0 {
		t.Fatal("no node serves when the stopped leader has exited: the lead was not handed over")
	}
	if id, epoch := masterOfSet(t, b1); id != "1" || epoch != 1 {
		t.Fatalf("after the leader's SIGTERM: master %s epoch %d, want 1 and 1", id, epoch)
	}
}

// groupWithMaster starts a 3-node cmd/controller group and one broker of
// set, heartbeating, elected master; it returns the group, the leader's
// index and the broker.
func groupWithMaster(t *testing.T, set string) (*controllerGroup, int, *ctltest.Broker) {
	t.Helper()
	g := startControllerGroup(t, 3)
	leader := g.leader(t, 20*time.Second)
	b := ctltest.NewBroker(t, "cluster-"+set, set, g.addrs)
	b.Register(t)
	heartbeatLoop(t, b)
	ctltest.MustCode(t, b.Elect(t), 0)
	return g, leader, b
}

// masterOfSet is the set's master id and epoch as the leader answers 1004.
func masterOfSet(t *testing.T, b *ctltest.Broker) (string, int32) {
	t.Helper()
	h, _ := b.ReplicaInfo(t)
	return ctltest.Int64(h.MasterBrokerID), *h.MasterEpoch
}
