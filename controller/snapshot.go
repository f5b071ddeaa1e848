package controller

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// snapshotVersion is written first in every snapshot; Restore refuses others.
const snapshotVersion = 1

// The snapshot keeps the two tables apart, because a clean can leave a set in
// one and not the other. Sets are sorted by name, members by id, so the same
// state always encodes to the same bytes.
type snapshotFile struct {
	Version    int                 `json:"version"`
	Replicas   []snapshotReplicas  `json:"replicaInfo"`
	SyncStates []snapshotSyncState `json:"syncStateInfo"`
}

type snapshotReplicas struct {
	ClusterName  string            `json:"clusterName"`
	BrokerName   string            `json:"brokerName"`
	NextBrokerID int64             `json:"nextBrokerId"`
	Brokers      []snapshotReplica `json:"brokers"`
}

type snapshotReplica struct {
	ID int64 `json:"id"`
	Replica
}

type snapshotSyncState struct {
	ClusterName       string  `json:"clusterName"`
	BrokerName        string  `json:"brokerName"`
	MasterBrokerID    *int64  `json:"masterBrokerId"`
	MasterEpoch       int32   `json:"masterEpoch"`
	SyncStateSetEpoch int32   `json:"syncStateSetEpoch"`
	SyncStateSet      []int64 `json:"syncStateSet"`
	Identity          string  `json:"identity,omitempty"`
}

// Snapshot encodes the whole state (versioned JSON); it backs the Raft FSM's
// snapshot, so a restart restores it instead of replaying the log.
func (s *State) Snapshot() ([]byte, error) {
	f := snapshotFile{Version: snapshotVersion, Replicas: []snapshotReplicas{}, SyncStates: []snapshotSyncState{}}
	for _, name := range slices.Sorted(maps.Keys(s.replicas)) {
		r := s.replicas[name]
		sr := snapshotReplicas{ClusterName: r.ClusterName, BrokerName: r.BrokerName, NextBrokerID: r.NextBrokerID,
			Brokers: []snapshotReplica{}}
		for _, id := range r.IDs() {
			sr.Brokers = append(sr.Brokers, snapshotReplica{ID: id, Replica: r.Brokers[id]})
		}
		f.Replicas = append(f.Replicas, sr)
	}
	for _, name := range slices.Sorted(maps.Keys(s.syncStates)) {
		ss := s.syncStates[name]
		f.SyncStates = append(f.SyncStates, snapshotSyncState{ClusterName: ss.ClusterName, BrokerName: ss.BrokerName,
			MasterBrokerID: ss.master(), MasterEpoch: ss.MasterEpoch, SyncStateSetEpoch: ss.SyncStateSetEpoch,
			SyncStateSet: ss.SyncStateSet, Identity: ss.Identity})
	}
	b, err := json.Marshal(&f)
	if err != nil {
		return nil, fmt.Errorf("encode controller snapshot: %w", err)
	}
	return b, nil
}

// Restore replaces the whole state with a snapshot's; on error the state is
// left as it was.
func (s *State) Restore(b []byte) error {
	var f snapshotFile
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("decode controller snapshot: %w", err)
	}
	if f.Version != snapshotVersion {
		return fmt.Errorf("controller snapshot version %d, want %d", f.Version, snapshotVersion)
	}
	next := NewState()
	for _, sr := range f.Replicas {
		r := &ReplicaInfo{ClusterName: sr.ClusterName, BrokerName: sr.BrokerName, NextBrokerID: sr.NextBrokerID,
			Brokers: make(map[int64]Replica, len(sr.Brokers))}
		for _, b := range sr.Brokers {
			r.Brokers[b.ID] = b.Replica
		}
		next.replicas[sr.BrokerName] = r
	}
	for _, sss := range f.SyncStates {
		ss := &SyncStateInfo{ClusterName: sss.ClusterName, BrokerName: sss.BrokerName, MasterEpoch: sss.MasterEpoch,
			SyncStateSetEpoch: sss.SyncStateSetEpoch, SyncStateSet: wire.SortedIDs(sss.SyncStateSet), Identity: sss.Identity}
		if ss.SyncStateSet == nil {
			ss.SyncStateSet = []int64{}
		}
		if sss.MasterBrokerID != nil {
			ss.HasMaster, ss.MasterBrokerID = true, *sss.MasterBrokerID
		}
		next.syncStates[sss.BrokerName] = ss
	}
	*s = *next
	return nil
}
