package controller

import (
	"reflect"
	"testing"
)

func TestApplyOnMissingSetsAndIDsChangesNothing(t *testing.T) {
	st := busyState(t)
	before, _ := st.Snapshot()
	st.ApplyAll([]Event{
		AlterSyncStateSetEvent{BrokerName: "nope", NewSyncStateSet: []int64{1}},
		ElectMasterEvent{NewMasterElected: true, BrokerName: "nope", NewMasterBrokerID: 1},
		ElectMasterEvent{NewMasterElected: true, BrokerName: "b2", NewMasterBrokerID: 2}, // b2 has no sync state
		CleanBrokerDataEvent{BrokerName: "nope", BrokerIDSetToClean: []int64{1}},
		UpdateBrokerAddressEvent{BrokerName: testSet, BrokerID: 9, BrokerAddress: "x"},
		UpdateBrokerAddressEvent{BrokerName: "nope", BrokerID: 1, BrokerAddress: "x"},
		ReadEvent{},
	})
	if after, _ := st.Snapshot(); string(after) != string(before) {
		t.Fatalf("state changed:\n%s\n%s", before, after)
	}
}

func TestAccessorsReturnCopies(t *testing.T) {
	st := busyState(t)
	ri, _ := st.ReplicaInfo(testSet)
	ss, _ := st.SyncStateInfo(testSet)
	ri.Brokers[1] = Replica{Address: "changed"}
	ss.SyncStateSet[0] = 42
	ri2, _ := st.ReplicaInfo(testSet)
	ss2, _ := st.SyncStateInfo(testSet)
	if ri2.Brokers[1].Address != testAddrs[1] || ss2.SyncStateSet[0] != 1 {
		t.Fatal("a caller's copy reached the state")
	}
	if !reflect.DeepEqual(st.BrokerNames(), []string{"b2", testSet}) {
		t.Fatalf("names %v", st.BrokerNames())
	}
}
