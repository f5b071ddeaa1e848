package controller

import (
	"regexp"
	"testing"
)

// A set's identity is drawn when the event creating it is proposed, kept by
// the state and its snapshots, carried by its elections, and new when the
// set is created again (a wiped store, or the set cleaned): its masterEpoch
// then counts from 1 again.
func TestSetIdentityIsCreatedWithTheSetAndKept(t *testing.T) {
	f := newFixture(t)
	f.register(1)
	f.alive(1)
	if r := f.elect(1, false); r.Code != CodeSuccess {
		t.Fatalf("elect: %d %s", r.Code, r.Remark)
	}
	first, ok := f.st.Election(testSet)
	if !ok || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(first.Identity) {
		t.Fatalf("election %+v: identity is not 128 random bits in hex", first)
	}
	f.register(2)
	if e, _ := f.st.Election(testSet); e.Identity != first.Identity {
		t.Fatalf("a second member changed the identity: %q, was %q", e.Identity, first.Identity)
	}
	snap, err := f.st.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored := NewState()
	if err := restored.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if e, _ := restored.Election(testSet); e.Identity != first.Identity {
		t.Fatalf("restored identity %q, want %q", e.Identity, first.Identity)
	}
	f.st.Apply(CleanBrokerDataEvent{BrokerName: testSet})
	f.register(1)
	if r := f.elect(1, false); r.Code != CodeSuccess {
		t.Fatalf("elect again: %d %s", r.Code, r.Remark)
	}
	again, _ := f.st.Election(testSet)
	if again.MasterEpoch != 1 || again.Identity == "" || again.Identity == first.Identity {
		t.Fatalf("recreated set's election %+v: want epoch 1 under a new identity (was %q)", again, first.Identity)
	}
}

// Entries and snapshots written before identities decode to sets without
// one, whose elections carry none.
func TestSetsWithoutIdentity(t *testing.T) {
	st := NewState()
	st.Apply(ApplyBrokerIDEvent{ClusterName: testCluster, BrokerName: testSet, BrokerAddress: testAddrs[1], NewBrokerID: 1})
	st.Apply(ElectMasterEvent{NewMasterElected: true, BrokerName: testSet, NewMasterBrokerID: 1})
	if e, _ := st.Election(testSet); e.Identity != "" {
		t.Fatalf("identity %q", e.Identity)
	}
	old := `{"version":1,"replicaInfo":[],"syncStateInfo":[{"clusterName":"c","brokerName":"b","masterBrokerId":null,"masterEpoch":3,"syncStateSetEpoch":1,"syncStateSet":[]}]}`
	restored := NewState()
	if err := restored.Restore([]byte(old)); err != nil {
		t.Fatal(err)
	}
	if ss, _ := restored.SyncStateInfo("b"); ss.Identity != "" || ss.MasterEpoch != 3 {
		t.Fatalf("restored %+v", ss)
	}
}
