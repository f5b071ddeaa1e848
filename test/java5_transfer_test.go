package test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
)

// javaHeartbeatSettle is what a restarted controller node is given, once it
// names a leader, to hear every Java broker again (brokers heartbeat to
// every controller each brokerHeartbeatInterval, 1 s).
const javaHeartbeatSettle = 3 * time.Second

// Issue 38's "done when": two Java 5.3.3 brokers in controller mode under
// our 3-node cmd/controller group keep one master (the same broker, the
// same epoch, the route and its stateVersion unchanged) through a
// leadership transfer (our mqadmin transferControllerLeader) and through a
// rolling restart of the group (each node SIGTERM'd and started again, the
// leader's turn after a transfer to a node restarted before it).
func TestJava5BrokersKeepOneMasterThroughTransferAndRollingRestart(t *testing.T) {
	build := java5Build(t)
	ctl := startControllerGroup(t, 3)
	ctl.leader(t, 30*time.Second)
	ns := startNamesrv(t)
	spec := javaBrokerSpec{cluster: "JTCluster", name: "jtset", namesrv: ns.Addr, controllers: ctl.addrs}
	a, b, probe := javaInSyncPair(t, build, spec)
	oneMaster := func(step string) {
		t.Helper()
		info, sss := probe.ReplicaInfo(t)
		if ctltest.Int64(info.MasterBrokerID) != "1" || *info.MasterEpoch != 1 || fmt.Sprint(sss.SyncStateSet) != "[1 2]" {
			t.Fatalf("%s: master %s epoch %d in-sync set %v, want 1, 1, [1 2]", step, ctltest.Int64(info.MasterBrokerID), *info.MasterEpoch, sss.SyncStateSet)
		}
		if err := wantRoute(ns.Addr, spec.name, map[int64]string{0: a.Addr, 2: b.Addr})(); err != nil {
			t.Fatalf("%s: route %v", step, err)
		}
		if sv, err := stateVersionOf(ns.Addr, spec.cluster, spec.name, a.Addr, 0); err != nil || sv != 1 {
			t.Fatalf("%s: master's stateVersion %d (%v), want 1", step, sv, err)
		}
	}
	oneMaster("before")

	leader := ctl.leader(t, 30*time.Second)
	target := (leader + 1) % 3
	out := mustMqadmin(t, "transferControllerLeader", "-a", ctl.addrs[leader], "-t", fmt.Sprintf("n%d", target))
	t.Logf("transfer n%d -> n%d: window %s ms", leader, target, transferLine(t, out, "WindowMillis"))
	time.Sleep(javaHeartbeatSettle) // the brokers' heartbeats and any scan of the new leader
	oneMaster("after the transfer")

	for _, w := range ctl.rollingRestart(t, time.Second, javaHeartbeatSettle, oneMaster) {
		t.Logf("rolling restart: transfer window %s", w)
	}
	time.Sleep(javaHeartbeatSettle)
	oneMaster("after the rolling restart")
}

// rollingRestart stops (SIGTERM) and starts again each node of the group
// in turn, the followers first, then (after a transfer by our mqadmin to the
// follower restarted first) the old leader; each restarted node is left
// down for down, and given settle once it names a leader. check runs after
// each step. It returns the windows the transfers printed.
func (g *controllerGroup) rollingRestart(t *testing.T, down, settle time.Duration, check func(step string)) []string {
	t.Helper()
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	restart := func(i int) {
		if code := g.procs[i].Stop(); code != 0 {
			t.Fatalf("n%d exited %d on SIGTERM", i, code)
		}
		time.Sleep(down)
		g.procs[i].start()
		eventually(t, 30*time.Second, fmt.Sprintf("restarted n%d names a leader", i), func() error {
			if md, err := probe.Metadata(g.addrs[i]); err != nil || md.ControllerLeaderAddress == "" {
				return fmt.Errorf("metadata %+v %v", md, err)
			}
			return nil
		})
		time.Sleep(settle)
		check(fmt.Sprintf("n%d restarted", i))
	}
	leader := g.leader(t, 30*time.Second)
	followers := []int{(leader + 1) % 3, (leader + 2) % 3}
	for _, f := range followers {
		restart(f)
	}
	out := mustMqadmin(t, "transferControllerLeader", "-a", g.addrs[leader], "-t", fmt.Sprintf("n%d", followers[0]))
	check(fmt.Sprintf("transfer n%d -> n%d", leader, followers[0]))
	restart(leader)
	return []string{transferLine(t, out, "WindowMillis") + " ms"}
}
