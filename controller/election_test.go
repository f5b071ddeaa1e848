package controller

import (
	"reflect"
	"testing"
)

func TestElectionFollowsElectMasterEvents(t *testing.T) {
	st := NewState()
	for id := int64(1); id <= 2; id++ {
		st.Apply(ApplyBrokerIDEvent{ClusterName: testCluster, BrokerName: testSet, BrokerAddress: testAddrs[id], NewBrokerID: id})
	}
	if _, ok := st.Election(testSet); ok {
		t.Fatal("a set without an election reports one")
	}
	st.Apply(ElectMasterEvent{NewMasterElected: true, BrokerName: testSet, NewMasterBrokerID: 2})
	want := Election{ClusterName: testCluster, BrokerName: testSet, MasterAddr: testAddrs[2], MasterBrokerID: 2, MasterEpoch: 1}
	if got, _ := st.Election(testSet); got != want {
		t.Fatalf("after electing 2: %+v, want %+v", got, want)
	}
	st.Apply(ElectMasterEvent{NewMasterElected: false, BrokerName: testSet})
	want = Election{ClusterName: testCluster, BrokerName: testSet, MasterEpoch: 2}
	if got := st.Elections(); !reflect.DeepEqual(got, []Election{want}) {
		t.Fatalf("after an election without master: %+v, want %+v", got, want)
	}
}

func TestElectedSetsNamesEachSetOnce(t *testing.T) {
	got := ElectedSets([]Event{
		ElectMasterEvent{BrokerName: "a"}, AlterSyncStateSetEvent{BrokerName: "b"},
		ElectMasterEvent{BrokerName: "c"}, ElectMasterEvent{BrokerName: "a"},
	})
	if !reflect.DeepEqual(got, []string{"a", "c"}) {
		t.Fatalf("ElectedSets %v", got)
	}
}
