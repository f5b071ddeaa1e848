package replicas

import (
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

func TestSyncStateSetIsTheAdoptedSetCopied(t *testing.T) {
	m := testManager(t, nil)
	if got := m.SyncStateSet(); got != nil {
		t.Fatalf("before any set: %v", got)
	}
	m.adoptSyncStateSet(&wire.SyncStateSet{SyncStateSet: []int64{2, 1}, SyncStateSetEpoch: 1})
	got := m.SyncStateSet()
	if !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("in-sync set %v, want [1 2]", got)
	}
	got[0] = 99
	if m.SyncStateSet()[0] != 1 {
		t.Fatal("the caller's copy aliases the manager's set")
	}
}
