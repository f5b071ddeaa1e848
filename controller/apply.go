package controller

import (
	"slices"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// Apply changes the state by one committed event, as Java's
// ReplicasInfoManager.applyEvent; an event naming a set that no longer exists
// changes nothing. It is the only writer of the state.
func (s *State) Apply(ev Event) {
	switch e := ev.(type) {
	case AlterSyncStateSetEvent:
		if _, ss, ok := s.set(e.BrokerName); ok {
			ss.SyncStateSet = wire.SortedIDs(e.NewSyncStateSet)
			ss.SyncStateSetEpoch++
		}
	case ApplyBrokerIDEvent:
		s.applyBrokerID(e)
	case ElectMasterEvent:
		if _, ss, ok := s.set(e.BrokerName); ok {
			ss.MasterEpoch++
			ss.HasMaster = e.NewMasterElected
			ss.MasterBrokerID = 0
			if e.NewMasterElected {
				ss.MasterBrokerID = e.NewMasterBrokerID
				ss.SyncStateSet = []int64{e.NewMasterBrokerID}
				ss.SyncStateSetEpoch++
			}
		}
	case CleanBrokerDataEvent:
		s.cleanBrokerData(e)
	case UpdateBrokerAddressEvent:
		if r, ok := s.replicas[e.BrokerName]; ok {
			if b, ok := r.Brokers[e.BrokerID]; ok {
				b.Address = e.BrokerAddress
				r.Brokers[e.BrokerID] = b
			}
		}
	}
}

// ApplyAll applies a log entry's events in order.
func (s *State) ApplyAll(events []Event) {
	for _, ev := range events {
		s.Apply(ev)
	}
}

func (s *State) applyBrokerID(e ApplyBrokerIDEvent) {
	r, _, ok := s.set(e.BrokerName)
	if !ok {
		r = &ReplicaInfo{ClusterName: e.ClusterName, BrokerName: e.BrokerName, NextBrokerID: FirstBrokerID,
			Brokers: map[int64]Replica{}}
		s.replicas[e.BrokerName] = r
		s.syncStates[e.BrokerName] = &SyncStateInfo{ClusterName: e.ClusterName, BrokerName: e.BrokerName,
			SyncStateSet: []int64{}, Identity: e.Identity}
	} else if _, held := r.Brokers[e.NewBrokerID]; held {
		return
	}
	r.Brokers[e.NewBrokerID] = Replica{Address: e.BrokerAddress, RegisterCheckCode: e.RegisterCheckCode}
	r.NextBrokerID++
}

func (s *State) cleanBrokerData(e CleanBrokerDataEvent) {
	if len(e.BrokerIDSetToClean) == 0 {
		delete(s.replicas, e.BrokerName)
		delete(s.syncStates, e.BrokerName)
		return
	}
	r, ss, ok := s.set(e.BrokerName)
	if !ok {
		return
	}
	for _, id := range e.BrokerIDSetToClean {
		delete(r.Brokers, id)
		ss.SyncStateSet = slices.DeleteFunc(ss.SyncStateSet, func(x int64) bool { return x == id })
	}
	if len(r.Brokers) == 0 {
		delete(s.replicas, e.BrokerName)
	}
	if len(ss.SyncStateSet) == 0 {
		delete(s.syncStates, e.BrokerName)
	}
}
