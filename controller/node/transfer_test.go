package node

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func transferReq(t *testing.T, addr, target string) *remoting.Command {
	t.Helper()
	return invoke(t, addr, wire.CodeTransferControllerLeader, &wire.TransferLeaderRequest{TargetID: target}, nil)
}

func decodeTransfer(t *testing.T, resp *remoting.Command) wire.TransferLeaderResponse {
	t.Helper()
	ctltest.MustCode(t, resp, 0)
	var res wire.TransferLeaderResponse
	if err := remoting.DecodeHeader(resp, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// 5021 to the leader naming a follower moves the lead there and answers
// only once that node serves; the state (a set and its master) is the new
// leader's as it was; a follower answers 2007 naming the leader; with no
// target Raft picks another node.
func TestTransferMovesTheLeadAndAnswersOnceTheNewLeaderServes(t *testing.T) {
	g := startGroup(t, 3, nil)
	old := g.leader(t)
	b := ctltest.NewBroker(t, "c", "set-t", g.addrs)
	b.Register(t)
	b.Heartbeat(t, 0, 0, 60000)
	waitFor(t, "the heartbeat on the leader", func() bool { return g.svcs[old].Node.live.size() == 1 })
	ctltest.MustCode(t, b.Elect(t), 0)

	target := (old + 1) % 3
	follower := (old + 2) % 3
	resp := transferReq(t, g.addrs[follower], fmt.Sprintf("n%d", target))
	if resp.Code != controller.CodeNotLeader || resp.ExtFields[wire.LeaderAddressExt] != g.addrs[old] {
		t.Fatalf("5021 to a follower: %d %q %v, want 2007 naming %s", resp.Code, resp.Remark, resp.ExtFields, g.addrs[old])
	}
	res := decodeTransfer(t, transferReq(t, g.addrs[old], fmt.Sprintf("n%d", target)))
	if !g.svcs[target].Node.Serving() {
		t.Fatalf("answered %+v before n%d serves", res, target)
	}
	want := wire.TransferLeaderResponse{OldLeaderID: fmt.Sprintf("n%d", old), OldLeaderAddress: g.addrs[old],
		NewLeaderID: fmt.Sprintf("n%d", target), NewLeaderAddress: g.addrs[target], WindowMillis: res.WindowMillis}
	if res != want || res.WindowMillis <= 0 {
		t.Fatalf("transfer answer %+v, want %+v and a window", res, want)
	}
	t.Logf("window without a serving leader: %d ms", res.WindowMillis)
	if id, epoch, _ := masterOf(t, b); id != 1 || epoch != 1 {
		t.Fatalf("after the transfer: master %d epoch %d, want 1 and 1", id, epoch)
	}

	res = decodeTransfer(t, transferReq(t, g.addrs[target], ""))
	if res.NewLeaderID == res.OldLeaderID || res.OldLeaderID != fmt.Sprintf("n%d", target) {
		t.Fatalf("transfer with no target: %+v", res)
	}
	// Naming the leader itself moves nothing.
	now := g.leader(t)
	res = decodeTransfer(t, transferReq(t, g.addrs[now], fmt.Sprintf("n%d", now)))
	if res.NewLeaderID != res.OldLeaderID || g.leader(t) != now {
		t.Fatalf("transfer to the leader itself: %+v", res)
	}
}

// An id that is no voter is refused 2005 naming the voters, an oversized
// one 1, and the lead stays.
func TestTransferToAnUnknownNodeIsRefused(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	resp := transferReq(t, g.addrs[leader], "n9")
	if resp.Code != controller.CodeInvalidRequest || !strings.Contains(resp.Remark, `unknown controller node id "n9": the voters are n0, n1, n2`) {
		t.Fatalf("unknown target: %d %q", resp.Code, resp.Remark)
	}
	resp = transferReq(t, g.addrs[leader], strings.Repeat("x", wire.MaxNodeIDBytes+1))
	if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "targetId is 257 bytes") {
		t.Fatalf("oversized target: %d %q", resp.Code, resp.Remark)
	}
	if now := g.leader(t); now != leader {
		t.Fatalf("a refused transfer moved the lead from n%d to n%d", leader, now)
	}
}

// A stopping leader hands its lead over before it stops: when Shutdown
// returns another node already serves, with no election timeout waited,
// and the set keeps its master.
func TestStoppingLeaderHandsTheLeadOver(t *testing.T) {
	g, bs := inSyncPairWithoutScans(t, 3, "set-g")
	old := g.leader(t)
	g.stop(t, old)
	serving := -1
	for i, s := range g.svcs {
		if s != nil && s.Node.Serving() {
			serving = i
		}
	}
	if serving < 0 {
		t.Fatal("no node serves when the stopped leader's Shutdown returned: the lead was not handed over")
	}
	if id, epoch, _ := masterOf(t, bs[1]); id != 1 || epoch != 1 {
		t.Fatalf("after the graceful stop: master %d epoch %d, want 1 and 1", id, epoch)
	}
}

// TransferLeader on a follower forwards to the leader; a single node has
// nothing to hand off and stops at once.
func TestFollowerForwardsTheTransfer(t *testing.T) {
	g := startGroup(t, 3, nil)
	old := g.leader(t)
	follower := (old + 1) % 3
	waitFor(t, "the follower to know the leader", func() bool {
		l, ok := g.svcs[follower].Node.Leader()
		return ok && l.ID == fmt.Sprintf("n%d", old)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := g.svcs[follower].Node.TransferLeader(ctx, fmt.Sprintf("n%d", follower))
	if err != nil {
		t.Fatal(err)
	}
	if res.OldLeaderID != fmt.Sprintf("n%d", old) || res.NewLeaderID != fmt.Sprintf("n%d", follower) || !g.svcs[follower].Node.Serving() {
		t.Fatalf("forwarded transfer: %+v", res)
	}
}

// While a transfer runs and no leader is known (the election it started),
// the old leader's 2007 names the target; with no transfer it names nobody.
func TestNotLeaderNamesTheTransferTargetWhileNoLeaderIsKnown(t *testing.T) {
	g := &group{cfgs: groupConfigs(t, 3, nil)}
	g.start(t, 0) // alone of three: no leader is ever known
	n := g.svcs[0].Node
	req := remoting.NewRequest(wire.CodeGetReplicaInfo, nil, nil)
	if resp := n.notLeader(req); resp.Code != controller.CodeNotLeader || resp.ExtFields[wire.LeaderAddressExt] != "" {
		t.Fatalf("no leader, no transfer: %d %v", resp.Code, resp.ExtFields)
	}
	target := n.peerList()[1]
	n.transferState.target.Store(&target)
	if resp := n.notLeader(req); resp.ExtFields[wire.LeaderAddressExt] != target.Addr {
		t.Fatalf("during a transfer to %s: %v", target.Addr, resp.ExtFields)
	}
}
