package faults

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// controllerDiskSize is each node's store tmpfs in the disk case: room for
// the history's log, small enough to fill in a moment.
const controllerDiskSize = 16 << 20

// TestControllerLeaderDiskFullIsLinearizable is issue 38 item 5: the disk
// fault as the other controller faults (kill, pause, partition) are, the
// history of controller writes and reads recorded under it and checked.
func TestControllerLeaderDiskFullIsLinearizable(t *testing.T) {
	r := record(t, 84, "controller leader's disk full, then freed",
		"3 nodes, each keeping its Raft store on a 16 MiB tmpfs of its own; the leader's tmpfs filled 1.5 s into the history of the kill case "+
			"(its next Raft log write fails), the filler removed 1 s after another node serves (the node restarted if it exited); "+
			"the history checked for linearizability and for acknowledged writes lost")
	args, addrs := controllerGroupArgs(t)
	disks := make([]string, 3)
	procs := make([]*proc, 3)
	for i := range 3 {
		disks[i] = mountTmpfs(t, r, controllerDiskSize)
		procs[i] = startProc(t, "controller", addrs[i], nil, append(args[i], "-controllerStorePath", disks[i])...)
	}
	var filler string
	checkControllerHistory(t, r, addrs, func(leader int) { filler = fill(t, disks[leader]) }, func(leader int) {
		if err := os.Remove(filler); err != nil {
			t.Errorf("remove the filler: %v", err)
		}
		select {
		case <-procs[leader].exited:
			r.observe(t, "the full node exited; started again on its store")
			procs[leader].start()
		default:
			r.observe(t, "the full node stayed up")
		}
	})
	if procs[0].logHas("no space left") || procs[1].logHas("no space left") || procs[2].logHas("no space left") {
		r.observe(t, "the full node's log names the failure (no space left on device)")
	} else {
		t.Error("no node logged the full disk: the fault did not reach the Raft log")
	}
}

// lostAckedWrites counts the applies of the history answered 0 (acknowledged)
// whose id the group's state, read once the history ended, does not hold
// with that check code (GET_SYNC_STATE_DATA lists every member with the
// address its check code gave it).
func lostAckedWrites(t *testing.T, addrs []string, ops []porcupine.Operation) int {
	t.Helper()
	held := map[int64]string{}
	oc := newOpClient(addrs)
	defer oc.close()
	names, _ := json.Marshal([]string{"set-lin"})
	if _, ok := waitFor(30*time.Second, 100*time.Millisecond, func() bool {
		resp, ok := oc.try(wire.CodeGetSyncStateData, nil, names)
		var info wire.BrokerReplicasInfo
		if !ok || resp.Code != 0 || json.Unmarshal(resp.Body, &info) != nil {
			return false
		}
		set := info.ReplicasInfoTable["set-lin"]
		for _, m := range append(set.InSyncReplicas, set.NotInSyncReplicas...) {
			held[m.BrokerID] = m.BrokerAddress
		}
		return true
	}); !ok {
		t.Fatal("the group's state could not be read within 30 s after the history")
	}
	lost := 0
	for _, op := range ops {
		in, out := op.Input.(setOp), op.Output.(setOut)
		if in.kind == "apply" && out.known && out.code == 0 && held[in.id] != in.code {
			t.Errorf("acknowledged apply of id %d (check code %s) lost: the state holds %q", in.id, in.code, held[in.id])
			lost++
		}
	}
	return lost
}

// ackedApplies counts the applies of the history answered 0.
func ackedApplies(ops []porcupine.Operation) int {
	n := 0
	for _, op := range ops {
		if in, out := op.Input.(setOp), op.Output.(setOut); in.kind == "apply" && out.known && out.code == 0 {
			n++
		}
	}
	return n
}

// lostWritesFigure reports the acknowledged writes lost of a history.
func lostWritesFigure(t *testing.T, r *row, addrs []string, ops []porcupine.Operation) {
	t.Helper()
	lost := lostAckedWrites(t, addrs, ops)
	r.figure(t, "acknowledged writes lost", strconv.Itoa(lost)+" of "+strconv.Itoa(ackedApplies(ops)))
}
