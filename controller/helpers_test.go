package controller

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// The fixtures of Java's ControllerTestBase.
const (
	testCluster = "cluster-a"
	testSet     = "broker-set-a"
)

var testAddrs = map[int64]string{1: "127.0.0.1:9000", 2: "127.0.0.1:9001", 3: "127.0.0.1:9002"}

// fixture is a controller node's view: the replicated state, changed only by
// committing results' events through the log-entry encoding, and the local
// heartbeat table, read at a fixed time.
type fixture struct {
	t   *testing.T
	st  *State
	hb  *HeartbeatTable
	now int64
	cfg ElectConfig
}

func newFixture(t *testing.T) *fixture {
	return &fixture{t: t, st: NewState(), hb: NewHeartbeatTable(), now: 1_000_000}
}

func (f *fixture) live() Liveness { return f.hb.At(f.now) }

// commit sends events through EncodeEntry/DecodeEntry, as a Raft log entry
// would carry them, and applies them.
func commit[H any](f *fixture, res *Result[H]) *Result[H] {
	f.t.Helper()
	b, err := EncodeEntry(res.Events)
	if err != nil {
		f.t.Fatal(err)
	}
	events, err := DecodeEntry(b)
	if err != nil {
		f.t.Fatal(err)
	}
	f.st.ApplyAll(events)
	return res
}

// beat records a heartbeat; alive false makes it already expired, as Java's
// tests do with a negative timeout.
func (f *fixture) beat(id int64, epoch int32, maxOffset int64, priority int32, alive bool) {
	timeout := int64(10_000_000_000)
	if !alive {
		timeout = -10_000
	}
	f.hb.Observe(&wire.BrokerHeartbeatRequest{ClusterName: testCluster, BrokerName: testSet, BrokerAddr: testAddrs[id],
		BrokerID: &id, Epoch: &epoch, MaxOffset: &maxOffset, HeartbeatTimeoutMills: &timeout, ElectionPriority: &priority}, f.now)
}

// alive marks exactly the given ids alive (the others dead).
func (f *fixture) alive(ids ...int64) {
	for id := range testAddrs {
		f.beat(id, 1, 1, DefaultElectionPriority, false)
	}
	for _, id := range ids {
		f.beat(id, 1, 1, DefaultElectionPriority, true)
	}
}

// register runs a broker's first registration: next id, apply it, register.
func (f *fixture) register(wantID int64) {
	f.t.Helper()
	next := f.st.GetNextBrokerID(&wire.GetNextBrokerIDRequest{ClusterName: testCluster, BrokerName: testSet})
	if next.Header.NextBrokerID != wantID {
		f.t.Fatalf("next broker id %d, want %d", next.Header.NextBrokerID, wantID)
	}
	applied := commit(f, f.st.ApplyBrokerID(&wire.ApplyBrokerIDRequest{ClusterName: testCluster, BrokerName: testSet,
		AppliedBrokerID: wantID, RegisterCheckCode: testAddrs[wantID] + ";1"}))
	if applied.Code != CodeSuccess {
		f.t.Fatalf("apply id %d: %d %s", wantID, applied.Code, applied.Remark)
	}
	reg := commit(f, f.st.RegisterBroker(&wire.RegisterBrokerRequest{ClusterName: testCluster, BrokerName: testSet,
		BrokerID: wantID, BrokerAddress: testAddrs[wantID]}, f.live()))
	if reg.Code != CodeSuccess {
		f.t.Fatalf("register id %d: %d %s", wantID, reg.Code, reg.Remark)
	}
}

func (f *fixture) elect(id int64, designate bool) *Result[wire.ElectMasterResponse] {
	return commit(f, f.st.ElectMaster(&wire.ElectMasterRequest{ClusterName: testCluster, BrokerName: testSet,
		BrokerID: id, DesignateElect: designate}, f.cfg, f.live()))
}

func (f *fixture) alter(master int64, masterEpoch int32, set []int64, setEpoch int32) *Result[wire.AlterSyncStateSetResponse] {
	return commit(f, f.st.AlterSyncStateSet(&wire.AlterSyncStateSetRequest{BrokerName: testSet, MasterBrokerID: master,
		MasterEpoch: masterEpoch}, &wire.SyncStateSet{SyncStateSet: set, SyncStateSetEpoch: setEpoch}, f.live()))
}

// mockMetaData is Java's ReplicasInfoManagerTest.mockMetaData: three
// brokers, broker 1 elected first, 2 and 3 told it exists, the in-sync set
// grown to {1,2,3} (syncStateSetEpoch 2).
func (f *fixture) mockMetaData() {
	f.t.Helper()
	f.alive(1, 2, 3)
	f.register(1)
	f.register(2)
	f.register(3)
	if r := f.elect(1, false); r.Code != CodeSuccess {
		f.t.Fatalf("first election: %d %s", r.Code, r.Remark)
	}
	for _, id := range []int64{2, 3} {
		if r := f.elect(id, false); r.Code != CodeMasterStillExist {
			f.t.Fatalf("election by %d: %d %s", id, r.Code, r.Remark)
		}
	}
	if r := f.alter(1, 1, []int64{1, 2, 3}, 1); r.Code != CodeSuccess {
		f.t.Fatalf("alter: %d %s", r.Code, r.Remark)
	}
}

// syncState returns the set's sync state info, failing if it is gone.
func (f *fixture) syncState() SyncStateInfo {
	f.t.Helper()
	ss, ok := f.st.SyncStateInfo(testSet)
	if !ok {
		f.t.Fatal("no sync state info")
	}
	return ss
}
