package controller

import (
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

func hbReq(id int64, epoch int32, maxOffset int64) *wire.BrokerHeartbeatRequest {
	return &wire.BrokerHeartbeatRequest{ClusterName: testCluster, BrokerName: testSet, BrokerAddr: testAddrs[id],
		BrokerID: &id, Epoch: &epoch, MaxOffset: &maxOffset}
}

func TestHeartbeatWithoutBrokerIDIsRefused(t *testing.T) {
	hb := NewHeartbeatTable()
	if hb.Observe(&wire.BrokerHeartbeatRequest{BrokerName: testSet}, 1) || hb.Len() != 0 {
		t.Fatal("a heartbeat without brokerId was stored")
	}
}

func TestHeartbeatDefaultsAndExpiry(t *testing.T) {
	hb := NewHeartbeatTable()
	id := int64(1)
	hb.Observe(&wire.BrokerHeartbeatRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: &id}, 1000)
	info, ok := hb.At(1000).LiveInfo(testCluster, testSet, 1)
	if !ok || info != (BrokerLiveInfo{BrokerID: 1, Epoch: -1, MaxOffset: -1, ElectionPriority: DefaultElectionPriority}) {
		t.Fatalf("defaults %+v %v", info, ok)
	}
	// Alive while last + timeout >= now (10 s default).
	if !hb.At(11000).Alive(testCluster, testSet, 1) || hb.At(11001).Alive(testCluster, testSet, 1) {
		t.Fatal("expiry boundary is not last + timeout")
	}
	if hb.At(1000).Alive("other-cluster", testSet, 1) {
		t.Fatal("liveness crossed clusters")
	}
	if next, ok := hb.NextExpiry(); !ok || next != 11001 {
		t.Fatalf("next expiry %d %v, want 11001", next, ok)
	}
	if gone := hb.Expire(11000); len(gone) != 0 {
		t.Fatalf("expired early: %v", gone)
	}
	two := int64(2)
	hb.Observe(&wire.BrokerHeartbeatRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: &two}, 5000)
	gone := hb.Expire(11001)
	if !slices.Equal(gone, []BrokerKey{{testCluster, testSet, 1}}) || hb.Len() != 1 {
		t.Fatalf("expired %v, left %d", gone, hb.Len())
	}
	if next, ok := hb.NextExpiry(); !ok || next != 15001 {
		t.Fatalf("next expiry %d %v, want 15001 (broker 2's)", next, ok)
	}
	hb.Remove(BrokerKey{testCluster, testSet, 2})
	if hb.Len() != 0 {
		t.Fatal("remove left the entry")
	}
	if _, ok := hb.NextExpiry(); ok {
		t.Fatal("an empty table has a next expiry")
	}
}

func TestHeartbeatFiguresOnlyMoveForward(t *testing.T) {
	hb := NewHeartbeatTable()
	hb.Observe(hbReq(1, 2, 100), 1)
	steps := []struct {
		epoch     int32
		maxOffset int64
		want      BrokerLiveInfo
	}{
		{1, 500, BrokerLiveInfo{1, 2, 100, DefaultElectionPriority}}, // lower epoch ignored
		{2, 50, BrokerLiveInfo{1, 2, 100, DefaultElectionPriority}},  // same epoch, lower offset ignored
		{2, 150, BrokerLiveInfo{1, 2, 150, DefaultElectionPriority}}, // same epoch, higher offset taken
		{3, 10, BrokerLiveInfo{1, 3, 10, DefaultElectionPriority}},   // higher epoch taken
	}
	for i, s := range steps {
		req := hbReq(1, s.epoch, s.maxOffset)
		prio := int32(7 + i)
		req.ElectionPriority = &prio
		hb.Observe(req, int64(10+i))
		got, _ := hb.At(int64(10+i)).LiveInfo(testCluster, testSet, 1)
		s.want.ElectionPriority = prio // the priority always refreshes
		if got != s.want {
			t.Errorf("step %d: got %+v, want %+v", i, got, s.want)
		}
	}
}
