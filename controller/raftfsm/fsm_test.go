package raftfsm

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// node is one controller's Raft member on a loopback port with its BoltDB
// log and file snapshots under dir.
type node struct {
	id    raft.ServerID
	dir   string
	fsm   *FSM
	raft  *raft.Raft
	trans *raft.NetworkTransport
	store *raftboltdb.BoltStore
}

func startNode(t *testing.T, id raft.ServerID, dir, bind string) *node {
	t.Helper()
	logger := hclog.New(&hclog.LoggerOptions{Output: io.Discard})
	cfg := raft.DefaultConfig()
	cfg.LocalID = id
	cfg.Logger = logger
	cfg.HeartbeatTimeout, cfg.ElectionTimeout = 300*time.Millisecond, 300*time.Millisecond
	cfg.LeaderLeaseTimeout, cfg.CommitTimeout = 150*time.Millisecond, 10*time.Millisecond
	store, err := raftboltdb.NewBoltStore(filepath.Join(dir, "raft.db"))
	if err != nil {
		t.Fatal(err)
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(dir, 2, logger)
	if err != nil {
		t.Fatal(err)
	}
	trans, err := raft.NewTCPTransportWithLogger(bind, nil, 3, time.Second, logger)
	if err != nil {
		t.Fatal(err)
	}
	n := &node{id: id, dir: dir, fsm: New(), trans: trans, store: store}
	if n.raft, err = raft.NewRaft(cfg, n.fsm, store, store, snaps, trans); err != nil {
		t.Fatal(err)
	}
	return n
}

func (n *node) stop(t *testing.T) {
	t.Helper()
	if err := n.raft.Shutdown().Error(); err != nil {
		t.Error(err)
	}
	n.trans.Close()
	n.store.Close()
}

// waitFor polls cond for up to 20 s (a bound on a hung group, not a timing
// assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func leaderOf(t *testing.T, nodes []*node) *node {
	t.Helper()
	var leader *node
	waitFor(t, "a leader", func() bool {
		for _, n := range nodes {
			if n != nil && n.raft.State() == raft.Leader {
				leader = n
				return true
			}
		}
		return false
	})
	return leader
}

// propose validates on the leader's state and commits the events, as the
// handlers will.
func propose[H any](t *testing.T, leader *node, validate func(*controller.State) *controller.Result[H]) *controller.Result[H] {
	t.Helper()
	var res *controller.Result[H]
	leader.fsm.Read(func(s *controller.State) { res = validate(s) })
	if len(res.Events) == 0 {
		return res
	}
	b, err := controller.EncodeEntry(res.Events)
	if err != nil {
		t.Fatal(err)
	}
	f := leader.raft.Apply(b, 5*time.Second)
	if err := f.Error(); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if resp := f.Response(); resp != nil {
		t.Fatalf("fsm response %v", resp)
	}
	return res
}

func snapshotOf(n *node) string {
	var b []byte
	n.fsm.Read(func(s *controller.State) { b, _ = s.Snapshot() })
	return string(b)
}

func TestThreeNodeGroupReplicatesAndRestoresFromSnapshot(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	nodes := make([]*node, 3)
	var servers []raft.Server
	for i := range nodes {
		nodes[i] = startNode(t, raft.ServerID(fmt.Sprintf("n%d", i)), dirs[i], "127.0.0.1:0")
		servers = append(servers, raft.Server{ID: nodes[i].id, Address: nodes[i].trans.LocalAddr()})
	}
	defer func() {
		for _, n := range nodes {
			if n != nil {
				n.stop(t)
			}
		}
	}()
	if err := nodes[0].raft.BootstrapCluster(raft.Configuration{Servers: servers}).Error(); err != nil {
		t.Fatal(err)
	}
	leader := leaderOf(t, nodes)
	if err := leader.raft.Barrier(5 * time.Second).Error(); err != nil {
		t.Fatal(err)
	}

	hb := controller.NewHeartbeatTable()
	for id := int64(1); id <= 3; id++ {
		addr := fmt.Sprintf("127.0.0.1:%d", 9000+id)
		r := propose(t, leader, func(s *controller.State) *controller.Result[wire.ApplyBrokerIDResponse] {
			return s.ApplyBrokerID(&wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: "b", AppliedBrokerID: id,
				RegisterCheckCode: addr + ";1"})
		})
		if r.Code != controller.CodeSuccess {
			t.Fatalf("apply id %d: %d %s", id, r.Code, r.Remark)
		}
		hb.Observe(&wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: "b", BrokerID: &id}, 0)
	}
	r := propose(t, leader, func(s *controller.State) *controller.Result[wire.ElectMasterResponse] {
		return s.ElectMaster(&wire.ElectMasterRequest{ClusterName: "c", BrokerName: "b", BrokerID: 2}, controller.ElectConfig{}, hb.At(0))
	})
	if r.Code != controller.CodeSuccess || *r.Header.MasterBrokerID != 2 {
		t.Fatalf("elect: %d %s", r.Code, r.Remark)
	}
	want := snapshotOf(leader)
	for _, n := range nodes {
		waitFor(t, string(n.id)+" to catch up", func() bool { return snapshotOf(n) == want })
	}

	// Snapshot a follower, stop it, restart it from its store: the state is
	// back from the snapshot before any log entry is replayed.
	var follower int
	for i, n := range nodes {
		if n != leader {
			follower = i
			break
		}
	}
	f := nodes[follower]
	if err := f.raft.Snapshot().Error(); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	addr := string(f.trans.LocalAddr())
	f.stop(t)
	nodes[follower] = nil
	restarted := startNode(t, f.id, f.dir, addr)
	nodes[follower] = restarted
	if got := snapshotOf(restarted); got != want {
		t.Fatalf("restarted node restored\n%s\nwant\n%s", got, want)
	}
	if last := restarted.raft.LastIndex(); last == 0 {
		t.Fatal("the restarted node lost its log")
	}
	// The group keeps committing with the restarted node in it.
	leader = leaderOf(t, nodes)
	propose(t, leader, func(s *controller.State) *controller.Result[wire.ApplyBrokerIDResponse] {
		return s.ApplyBrokerID(&wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: "b", AppliedBrokerID: 4,
			RegisterCheckCode: "127.0.0.1:9004;1"})
	})
	want = snapshotOf(leader)
	waitFor(t, "the restarted node to catch up", func() bool { return snapshotOf(restarted) == want })
}

// An entry the FSM cannot decode stops it, with an error naming the index
// (told once to OnFailure), and nothing after it is applied: skipping it
// would leave this node's state apart from the group's.
func TestApplyStopsAtAnEntryItCannotDecode(t *testing.T) {
	f := New()
	var told []error
	f.OnFailure(func(err error) { told = append(told, err) })
	resp := f.Apply(&raft.Log{Type: raft.LogCommand, Index: 7, Data: []byte{0, 9, 0, 0, 0, 0}})
	if err, ok := resp.(error); !ok || !strings.Contains(err.Error(), "raft log index 7") {
		t.Fatalf("damaged entry answered %v, want an error naming index 7", resp)
	}
	if resp := f.Apply(&raft.Log{Type: raft.LogNoop}); resp != nil {
		t.Fatalf("a no-op entry answered %v", resp)
	}
	b, err := controller.EncodeEntry([]controller.Event{controller.ApplyBrokerIDEvent{ClusterName: "c", BrokerName: "b",
		BrokerAddress: "127.0.0.1:9001", NewBrokerID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if resp := f.Apply(&raft.Log{Type: raft.LogCommand, Index: 8, Data: b}); resp == nil {
		t.Fatal("an entry after the failure applied")
	}
	if got := snapshotOf(&node{fsm: f}); got != `{"version":1,"replicaInfo":[],"syncStateInfo":[]}` {
		t.Fatalf("state %s", got)
	}
	if len(told) != 1 || !strings.Contains(told[0].Error(), "raft log index 7") || f.Failed() != told[0] {
		t.Fatalf("told %v, Failed %v", told, f.Failed())
	}
}

// An apply that panics (a bug the decoder let through) is an error naming
// the index, not a crash of the process.
func TestApplyThatPanicsStopsTheFSMWithoutACrash(t *testing.T) {
	f := New()
	f.applyEvents = func(*controller.State, []controller.Event) { panic("nil map") }
	resp := f.Apply(&raft.Log{Type: raft.LogCommand, Index: 9, Data: nil})
	if err, ok := resp.(error); !ok || !strings.Contains(err.Error(), "raft log index 9") || !strings.Contains(err.Error(), "nil map") {
		t.Fatalf("answered %v", resp)
	}
	var told error
	f.OnFailure(func(err error) { told = err })
	if told == nil || f.Failed() == nil {
		t.Fatal("a failure before OnFailure was not told")
	}
}

// A snapshot that does not decode is an error (hashicorp/raft then tries
// the next older one), and the state stays as it was.
func TestRestoreOfAnUndecodableSnapshotIsAnError(t *testing.T) {
	f := New()
	applyEvents(t, f, 1, controller.ApplyBrokerIDEvent{ClusterName: "c", BrokerName: "b", BrokerAddress: "127.0.0.1:9001", NewBrokerID: 1})
	before := snapshotOf(&node{fsm: f})
	for _, bad := range []string{"", "{not json", `{"version":2}`, `{"version":1,"replicaInfo":7}`} {
		if err := f.Restore(io.NopCloser(strings.NewReader(bad))); err == nil {
			t.Errorf("snapshot %q restored", bad)
		}
	}
	if got := snapshotOf(&node{fsm: f}); got != before {
		t.Fatalf("state %s, was %s", got, before)
	}
}

// applyEvents applies events as the log entry at index would.
func applyEvents(t *testing.T, f *FSM, index uint64, events ...controller.Event) {
	t.Helper()
	b, err := controller.EncodeEntry(events)
	if err != nil {
		t.Fatal(err)
	}
	if resp := f.Apply(&raft.Log{Type: raft.LogCommand, Index: index, Data: b}); resp != nil {
		t.Fatalf("apply: %v", resp)
	}
}

func TestObserversSeeEachElectionAndTheStateOnRestore(t *testing.T) {
	f := New()
	applyEvents(t, f, 1,
		controller.ApplyBrokerIDEvent{ClusterName: "c", BrokerName: "b", BrokerAddress: "127.0.0.1:9001", NewBrokerID: 1},
		controller.ApplyBrokerIDEvent{ClusterName: "c", BrokerName: "b", BrokerAddress: "127.0.0.1:9002", NewBrokerID: 2})
	applyEvents(t, f, 2, controller.ElectMasterEvent{NewMasterElected: true, BrokerName: "b", NewMasterBrokerID: 1})
	var seen []controller.Election
	f.Observe(func(e controller.Election) { seen = append(seen, e) })
	first := controller.Election{ClusterName: "c", BrokerName: "b", MasterAddr: "127.0.0.1:9001", MasterBrokerID: 1, MasterEpoch: 1}
	if len(seen) != 1 || seen[0] != first {
		t.Fatalf("on Observe: %+v, want the last election %+v", seen, first)
	}
	applyEvents(t, f, 3, controller.AlterSyncStateSetEvent{BrokerName: "b", NewSyncStateSet: []int64{1, 2}})
	applyEvents(t, f, 4, controller.ElectMasterEvent{NewMasterElected: true, BrokerName: "b", NewMasterBrokerID: 2})
	second := controller.Election{ClusterName: "c", BrokerName: "b", MasterAddr: "127.0.0.1:9002", MasterBrokerID: 2, MasterEpoch: 2}
	if len(seen) != 2 || seen[1] != second {
		t.Fatalf("after the second election: %+v, want %+v last (and nothing for the in-sync change)", seen, second)
	}
	snap, err := f.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored := New()
	var afterRestore []controller.Election
	restored.Observe(func(e controller.Election) { afterRestore = append(afterRestore, e) })
	if len(afterRestore) != 0 {
		t.Fatalf("an empty state reported %+v", afterRestore)
	}
	if err := restored.Restore(io.NopCloser(bytes.NewReader(snap.(snapshot)))); err != nil {
		t.Fatal(err)
	}
	if len(afterRestore) != 1 || afterRestore[0] != second {
		t.Fatalf("on restore: %+v, want %+v", afterRestore, second)
	}
}
