package controller

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// liveTable builds a heartbeat table where the given ids are alive with the
// given figures and every other id of 1..5 is dead.
func liveTable(t *testing.T, now int64, alive map[int64]BrokerLiveInfo) Liveness {
	t.Helper()
	hb := NewHeartbeatTable()
	for id := int64(1); id <= 5; id++ {
		info, ok := alive[id]
		timeout := int64(-10_000)
		if ok {
			timeout = 10_000
		}
		hb.Observe(&wire.BrokerHeartbeatRequest{ClusterName: testCluster, BrokerName: testSet, BrokerID: &id,
			Epoch: &info.Epoch, MaxOffset: &info.MaxOffset, ElectionPriority: &info.ElectionPriority,
			HeartbeatTimeoutMills: &timeout}, now)
	}
	return hb.At(now)
}

func TestElectPolicy(t *testing.T) {
	same := BrokerLiveInfo{Epoch: 1, MaxOffset: 10, ElectionPriority: 5}
	cases := []struct {
		name      string
		alive     map[int64]BrokerLiveInfo
		inSync    []int64
		all       []int64
		old       *int64
		preferred *int64
		want      int64
		ok        bool
	}{
		{"nobody alive", nil, []int64{1, 2}, []int64{1, 2, 3}, nil, nil, 0, false},
		{"in-sync first", map[int64]BrokerLiveInfo{2: same, 3: {Epoch: 9, MaxOffset: 99}}, []int64{1, 2}, []int64{1, 2, 3}, nil, nil, 2, true},
		{"unclean only when given all", map[int64]BrokerLiveInfo{3: same}, []int64{1, 2}, nil, nil, nil, 0, false},
		{"unclean fallback", map[int64]BrokerLiveInfo{3: same}, []int64{1, 2}, []int64{1, 2, 3}, nil, nil, 3, true},
		{"old master kept while alive", map[int64]BrokerLiveInfo{1: {Epoch: 0}, 2: {Epoch: 5}}, []int64{1, 2}, nil, ptr(int64(1)), nil, 1, true},
		{"old master kept when preferred", map[int64]BrokerLiveInfo{1: same, 2: same}, []int64{1, 2}, nil, ptr(int64(1)), ptr(int64(1)), 1, true},
		{"dead old master replaced", map[int64]BrokerLiveInfo{2: same}, []int64{1, 2}, nil, ptr(int64(1)), nil, 2, true},
		{"preferred over a live old master", map[int64]BrokerLiveInfo{1: same, 2: same}, []int64{1, 2}, nil, ptr(int64(1)), ptr(int64(2)), 2, true},
		{"dead preferred: nobody, no fallback", map[int64]BrokerLiveInfo{1: same}, []int64{1, 2}, nil, nil, ptr(int64(2)), 0, false},
		{"preferred outside the set: nobody", map[int64]BrokerLiveInfo{1: same, 3: same}, []int64{1, 2}, nil, nil, ptr(int64(3)), 0, false},
		{"higher epoch", map[int64]BrokerLiveInfo{1: {Epoch: 1, MaxOffset: 2}, 2: {Epoch: 2, MaxOffset: 1}}, []int64{1, 2}, nil, nil, nil, 2, true},
		{"higher offset", map[int64]BrokerLiveInfo{1: {Epoch: 1, MaxOffset: 3}, 2: {Epoch: 1, MaxOffset: 2}}, []int64{1, 2}, nil, nil, nil, 1, true},
		{"lower priority", map[int64]BrokerLiveInfo{1: {Epoch: 1, MaxOffset: 3, ElectionPriority: 2}, 2: {Epoch: 1, MaxOffset: 3, ElectionPriority: 1}}, []int64{1, 2}, nil, nil, nil, 2, true},
		{"exact tie: lower id", map[int64]BrokerLiveInfo{2: same, 3: same}, []int64{3, 2}, nil, nil, nil, 2, true},
		// Java's (int)(o2.maxOffset - o1.maxOffset) sees a 2^32 gap as equal
		// and keeps the first inserted, broker 2.
		{"offset gap of 2^32", map[int64]BrokerLiveInfo{2: {Epoch: 1, MaxOffset: 1}, 3: {Epoch: 1, MaxOffset: 1<<32 + 1}}, []int64{2, 3}, nil, nil, nil, 3, true},
		// A 2^31+1 gap makes Java's int negative the wrong way round.
		{"offset gap of 2^31+1", map[int64]BrokerLiveInfo{2: {Epoch: 1, MaxOffset: 0}, 3: {Epoch: 1, MaxOffset: 1<<31 + 1}}, []int64{2, 3}, nil, nil, nil, 3, true},
	}
	for _, c := range cases {
		got, ok := Elect(liveTable(t, 5000, c.alive), testCluster, testSet, c.inSync, c.all, c.old, c.preferred)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s: got %d %v, want %d %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
