package replicas

import (
	"math"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

func TestEpochLogEndsEachEpochWhereTheNextStarts(t *testing.T) {
	var l epochLog
	l.add(1, 0)
	l.add(3, 100)
	l.add(3, 200) // not higher: ignored
	l.add(2, 300) // lower: ignored
	l.add(4, 400)
	want := []wire.EpochEntry{{Epoch: 1, StartOffset: 0, EndOffset: 100}, {Epoch: 3, StartOffset: 100, EndOffset: 400},
		{Epoch: 4, StartOffset: 400, EndOffset: math.MaxInt64}}
	if len(l.entries) != len(want) {
		t.Fatalf("entries %v, want %v", l.entries, want)
	}
	for i := range want {
		if l.entries[i] != want[i] {
			t.Fatalf("entry %d: %v, want %v", i, l.entries[i], want[i])
		}
	}
}

func TestEpochLogKeepsTheNewestUpToItsLimit(t *testing.T) {
	var l epochLog
	for epoch := int32(1); epoch <= epochCacheLimit+10; epoch++ {
		l.add(epoch, int64(epoch))
	}
	if len(l.entries) != epochCacheLimit || l.entries[0].Epoch != 11 || l.entries[epochCacheLimit-1].Epoch != epochCacheLimit+10 {
		t.Fatalf("%d entries, first %v, last %v", len(l.entries), l.entries[0], l.entries[len(l.entries)-1])
	}
}

// The manager's cache lists each role change's epoch, with the id the
// broker registers under and its simulated offset as maxOffset.
func TestManagerEpochCacheFollowsRoleChanges(t *testing.T) {
	m := testManager(t, nil)
	if c := m.EpochCache(); len(c.EpochList) != 0 || c.ClusterName != "c" || c.BrokerName != "b" {
		t.Fatalf("fenced broker's cache %+v", c)
	}
	m.mu.Lock()
	m.controllerID = 2
	m.mu.Unlock()
	m.changeRole(1, "127.0.0.1:9000", 1, nil)
	m.changeRole(1, "127.0.0.1:9000", 1, nil) // same epoch: no entry
	m.changeRole(3, "127.0.0.1:9001", 2, nil)
	c := m.EpochCache()
	if c.BrokerID != 2 || len(c.EpochList) != 2 || c.EpochList[0].Epoch != 1 || c.EpochList[1].Epoch != 2 ||
		c.EpochList[0].EndOffset != c.EpochList[1].StartOffset || c.EpochList[1].EndOffset != math.MaxInt64 ||
		c.MaxOffset < c.EpochList[1].StartOffset {
		t.Fatalf("cache after two role changes %+v", c)
	}
}
