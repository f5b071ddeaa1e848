package controller

import (
	"strings"
	"testing"
)

func TestCheckApplyBrokerIDCountsSetsAndMembers(t *testing.T) {
	s := NewState()
	l := Limits{MaxBrokerSets: 2, MaxBrokerIDsPerSet: 2}
	apply := func(set string, id int64) {
		t.Helper()
		if err := s.CheckApplyBrokerID(set, id, l); err != nil {
			t.Fatalf("%s/%d within the limits: %v", set, id, err)
		}
		s.Apply(ApplyBrokerIDEvent{ClusterName: "c", BrokerName: set, NewBrokerID: id})
	}
	apply("a", 1)
	apply("b", 1)
	apply("a", 2)
	if s.SetCount() != 2 {
		t.Fatalf("%d sets, want 2", s.SetCount())
	}
	if err := s.CheckApplyBrokerID("c", 1, l); err == nil || !strings.Contains(err.Error(), "controllerMaxBrokerSets") {
		t.Fatalf("a third set: %v", err)
	}
	if err := s.CheckApplyBrokerID("a", 3, l); err == nil || !strings.Contains(err.Error(), "controllerMaxBrokerIdsPerSet") {
		t.Fatalf("a third member: %v", err)
	}
	if err := s.CheckApplyBrokerID("a", 2, l); err != nil {
		t.Fatalf("an id the set holds: %v", err)
	}
	// Cleaning a member makes room again (here the set, never elected,
	// is left in one table only, as Java leaves it: applying to it
	// replaces it and adds no set).
	s.Apply(CleanBrokerDataEvent{BrokerName: "a", BrokerIDSetToClean: []int64{2}})
	if err := s.CheckApplyBrokerID("a", 3, l); err != nil {
		t.Fatalf("after a clean: %v", err)
	}
}
