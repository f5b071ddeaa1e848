package controller

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// Every refusal path of each request, in Java's order, with Java's code and
// remark; a refusal proposes no events and leaves the state as it was.

func expectRefusal[H any](t *testing.T, name string, f *fixture, res *Result[H], code int, remark string) {
	t.Helper()
	before, _ := f.st.Snapshot()
	if res.Code != code || res.Remark != remark {
		t.Errorf("%s: got %d %q\n want %d %q", name, res.Code, res.Remark, code, remark)
	}
	if len(res.Events) != 0 {
		t.Errorf("%s: a refusal proposed %v", name, res.Events)
	}
	commit(f, res)
	if after, _ := f.st.Snapshot(); string(after) != string(before) {
		t.Errorf("%s: the state changed", name)
	}
}

func TestAlterSyncStateSetRefusals(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData() // master 1, masterEpoch 1, set {1,2,3}, syncStateSetEpoch 2
	f.st.Apply(ApplyBrokerIDEvent{ClusterName: testCluster, BrokerName: testSet, BrokerAddress: "127.0.0.1:9003", NewBrokerID: 4})
	cases := []struct {
		name        string
		broker      string
		master      int64
		masterEpoch int32
		set         []int64
		setEpoch    int32
		code        int
		remark      string
	}{
		{"unknown set", "nope", 1, 1, []int64{1}, 2, CodeAlterSyncStateSetFailed, "Broker metadata is not existed"},
		{"same set", testSet, 1, 1, []int64{3, 2, 1}, 2, CodeAlterSyncStateSetFailed,
			"The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet"},
		{"not the master", testSet, 2, 1, []int64{1, 2}, 2, CodeInvalidMaster,
			"Rejecting alter syncStateSet request because the current leader is:{1}, not {2}"},
		{"stale master epoch", testSet, 1, 0, []int64{1, 2}, 2, CodeFencedMasterEpoch,
			"Rejecting alter syncStateSet request because the current master epoch is:{1}, not {0}"},
		{"stale set epoch", testSet, 1, 1, []int64{1, 2}, 1, CodeFencedSyncStateSetEpoch,
			"Rejecting alter syncStateSet request because the current syncStateSet epoch is:{2}, not {1}"},
		{"unknown replica", testSet, 1, 1, []int64{1, 9}, 2, CodeInvalidReplicas,
			"Rejecting alter syncStateSet request because the replicas {9} don't exist"},
		{"dead replica", testSet, 1, 1, []int64{1, 4}, 2, CodeBrokerNotAlive,
			"Rejecting alter syncStateSet request because the replicas {4} don't alive"},
		{"set without the master", testSet, 1, 1, []int64{2, 3}, 2, CodeAlterSyncStateSetFailed,
			"Rejecting alter syncStateSet request because the newSyncStateSet don't contains origin leader {1}"},
	}
	for _, c := range cases {
		res := f.st.AlterSyncStateSet(&wire.AlterSyncStateSetRequest{BrokerName: c.broker, MasterBrokerID: c.master,
			MasterEpoch: c.masterEpoch}, &wire.SyncStateSet{SyncStateSet: c.set, SyncStateSetEpoch: c.setEpoch}, f.live())
		expectRefusal(t, c.name, f, res, c.code, c.remark)
	}
	// No master recorded prints Java's null.
	f.alive()
	f.elect(-1, false)
	f.alive(1, 2, 3)
	res := f.st.AlterSyncStateSet(&wire.AlterSyncStateSetRequest{BrokerName: testSet, MasterBrokerID: 1, MasterEpoch: 2},
		&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 2}, f.live())
	expectRefusal(t, "no master", f, res, CodeInvalidMaster,
		"Rejecting alter syncStateSet request because the current leader is:{null}, not {1}")
}

func TestAlterSyncStateSetSuccess(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	r := f.alter(1, 1, []int64{2, 1}, 2)
	if r.Code != CodeSuccess || r.Header.NewSyncStateSetEpoch != 3 || string(r.Body) != `{"syncStateSet":[1,2],"syncStateSetEpoch":3}` {
		t.Fatalf("got %d %s %+v %s", r.Code, r.Remark, r.Header, r.Body)
	}
	if ss := f.syncState(); ss.SyncStateSetEpoch != 3 || len(ss.SyncStateSet) != 2 {
		t.Fatalf("state %+v", ss)
	}
}

func TestElectMasterRefusalsAndFirstElection(t *testing.T) {
	f := newFixture(t)
	r := f.st.ElectMaster(&wire.ElectMasterRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: 1}, f.cfg, f.live())
	expectRefusal(t, "unknown set", f, r, CodeBrokerNeedToBeRegistered, "Broker hasn't been registered")
	f.register(1)
	f.register(2)
	// The first election goes to the requester even while it sends no heartbeats.
	r = f.elect(2, false)
	if r.Code != CodeSuccess || *r.Header.MasterBrokerID != 2 || *r.Header.MasterEpoch != 1 || *r.Header.SyncStateSetEpoch != 1 {
		t.Fatalf("first election: %d %s %+v", r.Code, r.Remark, r.Header)
	}
	g := newFixture(t)
	g.register(1)
	// A first election by the controller itself (-1) goes through the policy:
	// nobody alive and the set empty, so the master stays cleared.
	r = g.elect(-1, false)
	if r.Code != CodeMasterNotAvailable {
		t.Fatalf("controller-triggered first election: %d %s", r.Code, r.Remark)
	}
	if ss := g.syncState(); ss.HasMaster || ss.MasterEpoch != 1 {
		t.Fatalf("state %+v", ss)
	}
}

func TestApplyBrokerIDPaths(t *testing.T) {
	f := newFixture(t)
	apply := func(id int64, code string) *Result[wire.ApplyBrokerIDResponse] {
		return f.st.ApplyBrokerID(&wire.ApplyBrokerIDRequest{ClusterName: testCluster, BrokerName: testSet,
			AppliedBrokerID: id, RegisterCheckCode: code})
	}
	expectRefusal(t, "unknown set, id 2", f, apply(2, "127.0.0.1:9001;1"), CodeBrokerIDInvalid,
		"Broker-set: broker-set-a hasn't been registered in controller, but broker try to apply brokerId: 2")
	r := commit(f, apply(1, "127.0.0.1:9000;5"))
	if r.Code != CodeSuccess || r.Header != (wire.ApplyBrokerIDResponse{ClusterName: testCluster, BrokerName: testSet}) {
		t.Fatalf("first id: %d %s %+v", r.Code, r.Remark, r.Header)
	}
	ri, _ := f.st.ReplicaInfo(testSet)
	if ri.Brokers[1] != (Replica{Address: "127.0.0.1:9000", RegisterCheckCode: "127.0.0.1:9000;5"}) || ri.NextBrokerID != 2 {
		t.Fatalf("replica info %+v", ri)
	}
	// The same check code again is idempotent: accepted, and the next id
	// does not move when the event finds the id held.
	if r := commit(f, apply(1, "127.0.0.1:9000;5")); r.Code != CodeSuccess {
		t.Fatalf("retry: %d %s", r.Code, r.Remark)
	}
	if ri, _ := f.st.ReplicaInfo(testSet); ri.NextBrokerID != 2 {
		t.Fatalf("next id after retry %d", ri.NextBrokerID)
	}
	expectRefusal(t, "held with another code", f, apply(1, "127.0.0.1:9005;6"), CodeBrokerIDInvalid,
		"Fail to apply brokerId: 1 in broker-set: broker-set-a")
	// Java's counting rule: next = 1 + ids added, not max+1.
	commit(f, apply(7, "127.0.0.1:9007;1"))
	next := f.st.GetNextBrokerID(&wire.GetNextBrokerIDRequest{ClusterName: testCluster, BrokerName: testSet})
	if next.Header != (wire.GetNextBrokerIDResponse{ClusterName: testCluster, BrokerName: testSet, NextBrokerID: 3}) {
		t.Fatalf("next id %+v", next.Header)
	}
	commit(f, f.st.CleanBrokerData(&wire.CleanBrokerDataRequest{BrokerName: testSet, BrokerControllerIdsToClean: "7"}, f.live()))
	if ri, _ := f.st.ReplicaInfo(testSet); ri.NextBrokerID != 3 {
		t.Fatalf("a removal lowered the next id to %d", ri.NextBrokerID)
	}
}

func TestRegisterBrokerPaths(t *testing.T) {
	f := newFixture(t)
	reg := func(id int64, addr string) *Result[wire.RegisterBrokerResponse] {
		return f.st.RegisterBroker(&wire.RegisterBrokerRequest{ClusterName: testCluster, BrokerName: testSet,
			BrokerID: id, BrokerAddress: addr}, f.live())
	}
	expectRefusal(t, "unknown set", f, reg(1, testAddrs[1]), CodeBrokerNeedToBeRegistered,
		"Broker-set: broker-set-a hasn't been registered in controller")
	f.register(1)
	expectRefusal(t, "unknown id", f, reg(2, testAddrs[2]), CodeBrokerNeedToBeRegistered,
		"BrokerId: 2 hasn't been registered in broker-set: broker-set-a")
	if r := reg(1, testAddrs[1]); r.Code != CodeSuccess || len(r.Events) != 0 || r.Header.MasterBrokerID != nil {
		t.Fatalf("same address: %d %v %+v", r.Code, r.Events, r.Header)
	}
	r := commit(f, reg(1, "127.0.0.1:9100"))
	if len(r.Events) != 1 {
		t.Fatalf("moved address proposed %v", r.Events)
	}
	ri, _ := f.st.ReplicaInfo(testSet)
	if ri.Brokers[1] != (Replica{Address: "127.0.0.1:9100", RegisterCheckCode: testAddrs[1] + ";1"}) {
		t.Fatalf("address update kept %+v", ri.Brokers[1])
	}
}

func TestGetReplicaInfo(t *testing.T) {
	f := newFixture(t)
	r := f.st.GetReplicaInfo(&wire.GetReplicaInfoRequest{BrokerName: testSet})
	expectRefusal(t, "unknown set", f, r, CodeBrokerMetadataNotExist, "Broker metadata is not existed")
	f.mockMetaData()
	r = f.st.GetReplicaInfo(&wire.GetReplicaInfoRequest{BrokerName: testSet})
	if r.Code != CodeSuccess || *r.Header.MasterBrokerID != 1 || *r.Header.MasterAddress != testAddrs[1] ||
		*r.Header.MasterEpoch != 1 || string(r.Body) != `{"syncStateSet":[1,2,3],"syncStateSetEpoch":2}` {
		t.Fatalf("got %+v %s", r.Header, r.Body)
	}
}

func TestGetSyncStateData(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	f.alter(1, 1, []int64{1, 2}, 2)
	f.alive(1, 3)
	r := f.st.GetSyncStateData([]string{"unknown", testSet}, f.live())
	want := `{"replicasInfoTable":{"broker-set-a":{"inSyncReplicas":[` +
		`{"alive":true,"brokerAddress":"127.0.0.1:9000","brokerId":1,"brokerName":"broker-set-a"},` +
		`{"alive":false,"brokerAddress":"127.0.0.1:9001","brokerId":2,"brokerName":"broker-set-a"}],` +
		`"masterAddress":"127.0.0.1:9000","masterBrokerId":1,"masterEpoch":1,"notInSyncReplicas":[` +
		`{"alive":true,"brokerAddress":"127.0.0.1:9002","brokerId":3,"brokerName":"broker-set-a"}],"syncStateSetEpoch":3}}}`
	if r.Code != CodeSuccess || string(r.Body) != want {
		t.Fatalf("got %s\nwant %s", r.Body, want)
	}
}
