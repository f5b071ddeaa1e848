package controller

import (
	"maps"
	"slices"
)

// FirstBrokerID is the first controller id a broker set hands out (Java's
// MixAll.FIRST_BROKER_CONTROLLER_ID).
const FirstBrokerID int64 = 1

// Replica is one controller id's registration.
type Replica struct {
	Address           string `json:"address"`
	RegisterCheckCode string `json:"registerCheckCode"`
}

// ReplicaInfo is a set's members (Java's BrokerReplicaInfo).
type ReplicaInfo struct {
	ClusterName string
	BrokerName  string
	// NextBrokerID is 1 plus the number of ids ever added, Java's counting
	// rule: not max+1, and never lowered by removals.
	NextBrokerID int64
	Brokers      map[int64]Replica
}

// IDs returns the member ids ascending.
func (r *ReplicaInfo) IDs() []int64 { return slices.Sorted(maps.Keys(r.Brokers)) }

// Address returns an id's address and whether the id is a member.
func (r *ReplicaInfo) Address(id int64) (string, bool) {
	b, ok := r.Brokers[id]
	return b.Address, ok
}

func (r *ReplicaInfo) clone() *ReplicaInfo {
	c := *r
	c.Brokers = maps.Clone(r.Brokers)
	return &c
}

// SyncStateInfo is a set's master and in-sync set (Java's SyncStateInfo).
type SyncStateInfo struct {
	ClusterName string
	BrokerName  string
	// HasMaster is false while no master is recorded (Java's null master).
	HasMaster      bool
	MasterBrokerID int64
	// MasterEpoch grows by one with every election, won or failed; 0 means
	// the set never had an election (the first requester wins outright).
	MasterEpoch       int32
	SyncStateSetEpoch int32
	// SyncStateSet is ascending, without repeats.
	SyncStateSet []int64
	// Identity names this record of the set: random, drawn when the set is
	// created in the store and kept in it (log and snapshots). A store
	// created again (the group's stores wiped), or the set cleaned and
	// created again, counts masterEpoch from 1 under a new identity, which
	// tells the NameServers to drop their fence of the old record. "" for a
	// set created before identities.
	Identity string
}

func (s *SyncStateInfo) clone() *SyncStateInfo {
	c := *s
	c.SyncStateSet = slices.Clone(s.SyncStateSet)
	return &c
}

func (s *SyncStateInfo) master() *int64 {
	if !s.HasMaster {
		return nil
	}
	id := s.MasterBrokerID
	return &id
}

func (s *SyncStateInfo) inSync(id int64) bool {
	_, found := slices.BinarySearch(s.SyncStateSet, id)
	return found
}

// State is the whole replicated state: two tables keyed by brokerName, as
// Java's ReplicasInfoManager. A set "exists" only when it is in both. State is
// not safe for concurrent use; the Raft wiring serialises Apply and reads.
type State struct {
	replicas   map[string]*ReplicaInfo
	syncStates map[string]*SyncStateInfo
}

// NewState returns an empty state.
func NewState() *State {
	return &State{replicas: map[string]*ReplicaInfo{}, syncStates: map[string]*SyncStateInfo{}}
}

// set returns a set's two entries when it exists in both tables.
func (s *State) set(brokerName string) (*ReplicaInfo, *SyncStateInfo, bool) {
	r, ok1 := s.replicas[brokerName]
	ss, ok2 := s.syncStates[brokerName]
	return r, ss, ok1 && ok2
}

// ReplicaInfo returns a copy of a set's replica info, if recorded.
func (s *State) ReplicaInfo(brokerName string) (ReplicaInfo, bool) {
	r, ok := s.replicas[brokerName]
	if !ok {
		return ReplicaInfo{}, false
	}
	return *r.clone(), true
}

// SyncStateInfo returns a copy of a set's sync state info, if recorded.
func (s *State) SyncStateInfo(brokerName string) (SyncStateInfo, bool) {
	ss, ok := s.syncStates[brokerName]
	if !ok {
		return SyncStateInfo{}, false
	}
	return *ss.clone(), true
}

// BrokerNames returns every name in either table, sorted.
func (s *State) BrokerNames() []string {
	names := slices.Collect(maps.Keys(s.replicas))
	for name := range s.syncStates {
		if _, ok := s.replicas[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
