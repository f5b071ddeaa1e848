package controller

import (
	"reflect"
	"strings"
	"testing"
)

// busyState is a state with two sets, one with a master and one whose sync
// state was cleaned away while its replica info stayed (a clean can do that).
func busyState(t *testing.T) *State {
	f := newFixture(t)
	f.mockMetaData()
	f.st.ApplyAll([]Event{
		ApplyBrokerIDEvent{ClusterName: "c2", BrokerName: "b2", BrokerAddress: "10.0.0.1:1", RegisterCheckCode: "10.0.0.1:1;9", NewBrokerID: 1},
		ApplyBrokerIDEvent{ClusterName: "c2", BrokerName: "b2", BrokerAddress: "10.0.0.2:1", RegisterCheckCode: "10.0.0.2:1;9", NewBrokerID: 2},
		CleanBrokerDataEvent{BrokerName: "b2", BrokerIDSetToClean: []int64{1}},
	})
	if _, ok := f.st.SyncStateInfo("b2"); ok {
		t.Fatal("fixture: b2's sync state should be gone")
	}
	return f.st
}

func TestSnapshotRoundTrip(t *testing.T) {
	st := busyState(t)
	b, err := st.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := st.Snapshot()
	if string(again) != string(b) {
		t.Fatal("the same state encoded to different bytes")
	}
	restored := NewState()
	if err := restored.Restore(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(restored, st) {
		t.Fatalf("restored %+v\nwant %+v", restored, st)
	}
	if b2, _ := restored.Snapshot(); string(b2) != string(b) {
		t.Fatalf("re-encoded snapshot differs:\n%s\n%s", b2, b)
	}
	// Restored state answers and applies as the original does.
	for _, s := range []*State{st, restored} {
		s.Apply(ApplyBrokerIDEvent{ClusterName: testCluster, BrokerName: testSet, BrokerAddress: "x", NewBrokerID: 9})
	}
	if !reflect.DeepEqual(restored, st) {
		t.Fatal("the restored state diverged after one more event")
	}
}

func TestRestoreReplacesTheWholeState(t *testing.T) {
	empty, _ := NewState().Snapshot()
	if string(empty) != `{"version":1,"replicaInfo":[],"syncStateInfo":[]}` {
		t.Fatalf("empty snapshot %s", empty)
	}
	st := busyState(t)
	if err := st.Restore(empty); err != nil {
		t.Fatal(err)
	}
	if names := st.BrokerNames(); len(names) != 0 {
		t.Fatalf("sets survived a restore: %v", names)
	}
}

func TestRestoreRefusesBadSnapshotsAndKeepsState(t *testing.T) {
	st := busyState(t)
	before, _ := st.Snapshot()
	for name, b := range map[string]string{
		"not json":      `{"version":1,`,
		"wrong version": `{"version":2,"replicaInfo":[],"syncStateInfo":[]}`,
	} {
		err := st.Restore([]byte(b))
		if err == nil || !strings.Contains(err.Error(), "controller snapshot") {
			t.Errorf("%s: got %v", name, err)
		}
	}
	if after, _ := st.Snapshot(); string(after) != string(before) {
		t.Fatal("a failed restore changed the state")
	}
}
