package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// controllerStatus reads a node's /v1/controller.
func controllerStatus(port int) (*node.Status, error) {
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/v1/controller", port))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var st node.Status
	return &st, json.NewDecoder(resp.Body).Decode(&st)
}

func nextIDIn(st *node.Status, name string) int64 {
	for _, set := range st.BrokerSets {
		if set.BrokerName == name {
			return set.NextBrokerID
		}
	}
	return 0
}

func TestControllerFollowerDiskFull(t *testing.T) {
	r := record(t, 82, "controller follower's disk full, then freed",
		"3-node group whose third node keeps its Raft store on an 8 MiB tmpfs; the tmpfs filled, 40 ids applied through the leader, the filler removed (the node restarted if it exited)")
	args, addrs := controllerGroupArgs(t)
	disk := mountTmpfs(t, r, 8<<20)
	httpPort := freePort(t)
	args[2] = append(args[2], "-controllerStorePath", disk, "-httpListenPort", strconv.Itoa(httpPort))
	var procs []*proc
	for i := range 2 { // the first two elect a leader; the third joins as a follower
		procs = append(procs, startProc(t, "controller", addrs[i], nil, args[i]...))
	}
	controllerLeader(t, addrs[:2], -1, 20*time.Second)
	procs = append(procs, startProc(t, "controller", addrs[2], nil, args[2]...))
	b := ctltest.NewBroker(t, "cluster-d", "set-disk", addrs)
	b.Register(t)
	if _, ok := waitFor(20*time.Second, 50*time.Millisecond, func() bool {
		st, err := controllerStatus(httpPort)
		return err == nil && nextIDIn(st, "set-disk") == 2
	}); !ok {
		t.Fatal("the third node never caught up before the fault")
	}
	filler := fill(t, disk)
	acked := 0
	for id := int64(2); id <= 41; id++ {
		resp := b.Call(t, wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "cluster-d", BrokerName: "set-disk",
			AppliedBrokerID: id, RegisterCheckCode: fmt.Sprintf("addr-%d;1", id)}, nil)
		if resp.Code == 0 {
			acked++
		}
	}
	r.observe(t, "%d of 40 writes acknowledged with the follower's disk full", acked)
	if acked != 40 {
		t.Errorf("%d of 40 writes acknowledged; the two healthy nodes are a quorum", acked)
	}
	exited := false
	select {
	case <-procs[2].exited:
		exited = true
	default:
	}
	r.observe(t, "the full node exited: %v; its log names the failure: %v", exited, procs[2].logHas("no space left"))
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if exited {
		procs[2].start()
	}
	caughtUp, ok := waitFor(30*time.Second, 100*time.Millisecond, func() bool {
		st, err := controllerStatus(httpPort)
		return err == nil && nextIDIn(st, "set-disk") == 42
	})
	if !ok {
		st, err := controllerStatus(httpPort)
		t.Fatalf("the third node never caught up after the disk was freed: %+v %v", st, err)
	}
	r.figure(t, "catch-up after the disk was freed", caughtUp.Round(time.Millisecond).String())
}
