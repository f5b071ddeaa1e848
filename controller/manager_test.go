package controller

import (
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// The behaviours of Java's ReplicasInfoManagerTest, against the pure state:
// every change goes through the returned events.

func replicasOf(t *testing.T, f *fixture) wire.ReplicasInfo {
	t.Helper()
	res := f.st.GetSyncStateData([]string{testSet}, f.live())
	ri, ok := decodeReplicas(t, res.Body)[testSet]
	if !ok {
		t.Fatalf("no %s in %s", testSet, res.Body)
	}
	return ri
}

func TestRegisterBrokerSuccess(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	ss := f.syncState()
	if !ss.HasMaster || ss.MasterBrokerID != 1 || ss.MasterEpoch != 1 || ss.SyncStateSetEpoch != 2 ||
		!slices.Equal(ss.SyncStateSet, []int64{1, 2, 3}) {
		t.Fatalf("after mockMetaData: %+v", ss)
	}
	ri := replicasOf(t, f)
	if len(ri.InSyncReplicas) != 3 || len(ri.NotInSyncReplicas) != 0 || *ri.MasterAddress != testAddrs[1] {
		t.Fatalf("replicas %+v", ri)
	}
}

func TestRegisterWithMasterExistResp(t *testing.T) {
	f := newFixture(t)
	f.alive(1, 2, 3)
	f.register(1)
	f.register(2)
	f.elect(1, false)
	f.elect(2, false)
	// The third broker registers after the election and is told the master.
	f.register(3)
	reg := f.st.RegisterBroker(&wire.RegisterBrokerRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: 3,
		BrokerAddress: testAddrs[3]}, f.live())
	if reg.Header.MasterBrokerID == nil || *reg.Header.MasterBrokerID != 1 || *reg.Header.MasterAddress != testAddrs[1] ||
		*reg.Header.MasterEpoch != 1 || *reg.Header.SyncStateSetEpoch != 1 {
		t.Fatalf("register answer %+v", reg.Header)
	}
	if string(reg.Body) != `{"syncStateSet":[1],"syncStateSetEpoch":1}` {
		t.Fatalf("register body %s", reg.Body)
	}
	ri := replicasOf(t, f)
	if len(ri.InSyncReplicas) != 1 || len(ri.NotInSyncReplicas) != 2 {
		t.Fatalf("replicas %+v", ri)
	}
}

func TestRegisterWithOldMasterInactive(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	f.alive(3)
	// No master reported while the recorded one is dead.
	reg := f.st.RegisterBroker(&wire.RegisterBrokerRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: 3,
		BrokerAddress: testAddrs[3]}, f.live())
	if reg.Code != CodeSuccess || reg.Header.MasterBrokerID != nil || reg.Header.MasterEpoch != nil {
		t.Fatalf("register answer %+v", reg.Header)
	}
	if r := f.elect(3, false); r.Code != CodeSuccess {
		t.Fatalf("elect: %d %s", r.Code, r.Remark)
	}
	ss := f.syncState()
	if ss.MasterBrokerID != 3 || ss.MasterEpoch != 2 || ss.SyncStateSetEpoch != 3 || !slices.Equal(ss.SyncStateSet, []int64{3}) {
		t.Fatalf("after election %+v", ss)
	}
	ri := replicasOf(t, f)
	if *ri.MasterAddress != testAddrs[3] || len(ri.InSyncReplicas) != 1 || len(ri.NotInSyncReplicas) != 2 {
		t.Fatalf("replicas %+v", ri)
	}
}

func TestElectMasterOldMasterStillAlive(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	r := f.elect(-1, false)
	if r.Code != CodeMasterStillExist || len(r.Events) != 0 {
		t.Fatalf("got %d %s, events %v", r.Code, r.Remark, r.Events)
	}
	if r.Remark != "The old master 1 is still alive, not need to elect new master for broker broker-set-a" {
		t.Fatalf("remark %q", r.Remark)
	}
	if *r.Header.MasterBrokerID != 1 || *r.Header.MasterAddress != testAddrs[1] || *r.Header.MasterEpoch != 1 ||
		*r.Header.SyncStateSetEpoch != 2 || string(r.Body) != `{"syncStateSet":[1,2,3]}` {
		t.Fatalf("answer %+v %s", r.Header, r.Body)
	}
}

// The policy's ordering through a controller-triggered election with the
// master dead: Java's testElectMasterPreferHigherEpoch, ...HigherOffset...,
// ...HigherPriority....
func TestElectMasterOrdering(t *testing.T) {
	type beat struct {
		epoch    int32
		offset   int64
		priority int32
	}
	cases := []struct {
		name   string
		b2, b3 beat
		want   int64
	}{
		{"higher epoch", beat{1, 2, 0}, beat{0, 3, 0}, 2},
		{"higher offset when epochs equal", beat{1, 2, 0}, beat{1, 3, 0}, 3},
		{"lower priority when epoch and offset equal", beat{1, 3, 2}, beat{1, 3, 1}, 3},
		{"lower id on an exact tie", beat{1, 3, 1}, beat{1, 3, 1}, 2},
	}
	for _, c := range cases {
		f := newFixture(t)
		f.mockMetaData()
		f.beat(1, 1, 1, 1, false)
		f.beat(2, c.b2.epoch, c.b2.offset, c.b2.priority, true)
		f.beat(3, c.b3.epoch, c.b3.offset, c.b3.priority, true)
		r := f.elect(-1, false)
		if r.Code != CodeSuccess || *r.Header.MasterBrokerID != c.want || *r.Header.MasterAddress != testAddrs[c.want] ||
			*r.Header.MasterEpoch != 2 {
			t.Errorf("%s: got %d %s %+v", c.name, r.Code, r.Remark, r.Header)
			continue
		}
		if ss := f.syncState(); ss.MasterBrokerID != c.want || ss.MasterEpoch != 2 {
			t.Errorf("%s: state %+v", c.name, ss)
		}
	}
}

func TestElectMaster(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	f.alive(2, 3)
	r := f.elect(-1, false)
	if r.Code != CodeSuccess || *r.Header.MasterEpoch != 2 || *r.Header.MasterBrokerID == 1 {
		t.Fatalf("controller-triggered: %d %+v", r.Code, r.Header)
	}
	master := *r.Header.MasterBrokerID
	wantBody := `{"brokerMemberGroup":{"brokerAddrs":{1:"127.0.0.1:9000",2:"127.0.0.1:9001",3:"127.0.0.1:9002"},` +
		`"brokerName":"broker-set-a","cluster":"cluster-a"},"syncStateSet":[` + string(rune('0'+master)) + `]}`
	if string(r.Body) != wantBody {
		t.Fatalf("body %s\nwant %s", r.Body, wantBody)
	}
	f.alive(1, 2, 3)
	if a := f.alter(master, 2, []int64{1, 2, 3}, 3); a.Code != CodeSuccess {
		t.Fatalf("alter: %d %s", a.Code, a.Remark)
	}
	f.alive(2, 3)
	// Designated broker 1 is dead: no fallback to anyone else.
	if r := f.elect(1, true); r.Code != CodeElectMasterFailed || len(r.Events) != 0 {
		t.Fatalf("designate dead: %d %s", r.Code, r.Remark)
	}
	// Designating the current master changes nothing.
	if r := f.elect(master, true); r.Code != CodeMasterStillExist {
		t.Fatalf("designate master: %d %s", r.Code, r.Remark)
	}
	// Broker 1 alive, current master dead: the designated broker wins.
	f.alive(1, 2, 3)
	f.beat(master, 1, 1, 1, false)
	r = f.elect(1, true)
	if r.Code != CodeSuccess || *r.Header.MasterBrokerID != 1 || *r.Header.MasterEpoch != 3 {
		t.Fatalf("designate alive: %d %s %+v", r.Code, r.Remark, r.Header)
	}
	if ss := f.syncState(); ss.MasterBrokerID != 1 || ss.MasterEpoch != 3 {
		t.Fatalf("state %+v", ss)
	}
}

func TestDesignatedBrokerWinsOverLiveOldMaster(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	r := f.elect(2, true)
	if r.Code != CodeSuccess || *r.Header.MasterBrokerID != 2 {
		t.Fatalf("got %d %s %+v", r.Code, r.Remark, r.Header)
	}
}

func TestAllReplicasShutdownAndRestart(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	if a := f.alter(1, 1, []int64{1}, 2); a.Code != CodeSuccess {
		t.Fatalf("shrink: %d %s", a.Code, a.Remark)
	}
	f.alive()
	r := f.elect(-1, false)
	if r.Code != CodeMasterNotAvailable || r.Remark != "Old master has down and failed to elect a new broker master" {
		t.Fatalf("got %d %s", r.Code, r.Remark)
	}
	if len(r.Events) != 1 || r.Events[0] != (ElectMasterEvent{NewMasterElected: false, BrokerName: testSet}) {
		t.Fatalf("events %#v", r.Events)
	}
	ss := f.syncState()
	if ss.HasMaster || ss.MasterEpoch != 2 || !slices.Equal(ss.SyncStateSet, []int64{1}) {
		t.Fatalf("state %+v", ss)
	}
	info := f.st.GetReplicaInfo(&wire.GetReplicaInfoRequest{BrokerName: testSet})
	if info.Header.MasterAddress != nil || info.Header.MasterBrokerID != nil || *info.Header.MasterEpoch != 2 {
		t.Fatalf("replica info %+v", info.Header)
	}
	// Java's testAllReplicasShutdownAndRestartWithUnEnableElectUnCleanMaster:
	// broker 2 (not in sync) cannot become master; broker 1 back can.
	f.alive(2)
	if r := f.elect(2, false); r.Code != CodeElectMasterFailed {
		t.Fatalf("broker 2: %d %s", r.Code, r.Remark)
	}
	f.alive(1, 2)
	if r := f.elect(1, false); r.Code != CodeSuccess || *r.Header.MasterEpoch != 3 {
		t.Fatalf("broker 1: %d %s", r.Code, r.Remark)
	}
}

func TestEnableElectUncleanMaster(t *testing.T) {
	f := newFixture(t)
	f.cfg.EnableElectUncleanMaster = true
	f.mockMetaData()
	f.alter(1, 1, []int64{1}, 2)
	f.alive(2, 3)
	r := f.elect(-1, false)
	if r.Code != CodeSuccess || *r.Header.MasterBrokerID == 1 {
		t.Fatalf("got %d %s", r.Code, r.Remark)
	}
	ss := f.syncState()
	if ss.MasterEpoch != 2 || !slices.Equal(ss.SyncStateSet, []int64{ss.MasterBrokerID}) {
		t.Fatalf("state %+v", ss)
	}
}

func TestCleanBrokerData(t *testing.T) {
	clean := func(f *fixture, cluster, name, ids string, living bool) *Result[struct{}] {
		return commit(f, f.st.CleanBrokerData(&wire.CleanBrokerDataRequest{ClusterName: cluster, BrokerName: name,
			BrokerControllerIdsToClean: ids, IsCleanLivingBroker: living}, f.live()))
	}
	f := newFixture(t)
	f.mockMetaData()
	if r := clean(f, testCluster, testSet, "1", false); r.Code != CodeInvalidCleanBrokerMetadata ||
		r.Remark != "Broker [broker-set-a,  1] is still alive, clean up failure" {
		t.Fatalf("live id: %d %q", r.Code, r.Remark)
	}
	if r := clean(f, testCluster, testSet, "", false); r.Code != CodeInvalidCleanBrokerMetadata ||
		r.Remark != "Broker broker-set-a is still alive, clean up failure" {
		t.Fatalf("no ids: %d %q", r.Code, r.Remark)
	}
	if r := clean(f, testCluster, testSet, "1;x", false); r.Code != CodeInvalidCleanBrokerMetadata ||
		r.Remark != `Please set the option <brokerControllerIdsToClean> according to the format, exception: java.lang.NumberFormatException: For input string: "x"` {
		t.Fatalf("bad ids: %d %q", r.Code, r.Remark)
	}
	f.alive()
	if r := clean(f, testCluster, testSet, "1", false); r.Code != CodeSuccess {
		t.Fatalf("dead id: %d %q", r.Code, r.Remark)
	}
	ri, _ := f.st.ReplicaInfo(testSet)
	if _, held := ri.Brokers[1]; held || !slices.Equal(f.syncState().SyncStateSet, []int64{2, 3}) {
		t.Fatalf("after clean of 1: %+v %+v", ri, f.syncState())
	}
	if r := clean(f, testCluster, testSet, "1;2;3;", false); r.Code != CodeSuccess {
		t.Fatalf("dead ids: %d %q", r.Code, r.Remark)
	}
	if names := f.st.BrokerNames(); len(names) != 0 {
		t.Fatalf("set left after cleaning every id: %v", names)
	}
	if r := clean(f, testCluster, "broker12", "", true); r.Code != CodeInvalidCleanBrokerMetadata ||
		r.Remark != "Broker broker12 is not existed,clean broker data failure." {
		t.Fatalf("unknown set: %d %q", r.Code, r.Remark)
	}
	if r := clean(f, "", "broker12", "", true); r.Code != CodeInvalidCleanBrokerMetadata {
		t.Fatalf("unknown set, no cluster: %d %q", r.Code, r.Remark)
	}
	g := newFixture(t)
	g.mockMetaData()
	if r := clean(g, "", testSet, "", true); r.Code != CodeSuccess || len(g.st.BrokerNames()) != 0 {
		t.Fatalf("clean living, no cluster: %d %q %v", r.Code, r.Remark, g.st.BrokerNames())
	}
	// A cleaned set starts again from id 1 (GET_NEXT_BROKER_ID after CLEAN).
	g.register(1)
}

func TestScanNeedReelect(t *testing.T) {
	f := newFixture(t)
	f.mockMetaData()
	if got := f.st.ScanNeedReelect(f.live()); len(got) != 0 {
		t.Fatalf("master alive: %v", got)
	}
	f.alive(2)
	if got := f.st.ScanNeedReelect(f.live()); !slices.Equal(got, []string{testSet}) {
		t.Fatalf("master dead, 2 alive: %v", got)
	}
	f.alive()
	if got := f.st.ScanNeedReelect(f.live()); len(got) != 0 {
		t.Fatalf("everyone dead: %v", got)
	}
}
