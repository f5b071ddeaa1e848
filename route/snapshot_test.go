package route

import "testing"

func TestTxnPublishesOnlyOnCommitAndOnlyWhenChanged(t *testing.T) {
	m := NewManager(Config{})
	before := m.current.Load()
	m.mu.Lock()
	tx := m.begin()
	tx.addClusterBroker("c", "b")
	if m.current.Load() != before || len(before.clusters) != 0 {
		t.Fatal("uncommitted change visible")
	}
	tx.commit()
	untouched := m.begin()
	untouched.commit()
	m.mu.Unlock()
	after := m.current.Load()
	if after == before || after.clusters["c"][0] != "b" {
		t.Fatal("commit did not publish")
	}
	if m.current.Load() != after {
		t.Fatal("an empty transaction published a snapshot")
	}
}
