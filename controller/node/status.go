package node

import (
	"github.com/gonamesrv/gonamesrv/controller"
)

// Status is what the side port's /v1/controller shows of a node.
type Status struct {
	Self  string `json:"self"`
	Group string `json:"group"`
	Role  string `json:"role"`
	// Removed: this node was removed from the group (membership.go).
	Removed bool `json:"removed,omitempty"`
	Serving bool `json:"serving"`
	// Down is why the node stopped (an entry it cannot apply); "" while up.
	Down          string      `json:"down,omitempty"`
	LeaderID      string      `json:"leaderId"`
	LeaderAddress string      `json:"leaderAddress"`
	Peers         []PeerState `json:"peers"`
	Term          string      `json:"term"`
	LastIndex     string      `json:"lastIndex"`
	AppliedIndex  string      `json:"appliedIndex"`
	SnapshotIndex string      `json:"snapshotIndex"`
	LiveBrokers   int         `json:"liveBrokers"`
	BrokerSets    []SetState  `json:"brokerSets"`
}

// PeerState is one listed peer.
type PeerState struct {
	ID       string `json:"id"`
	Addr     string `json:"addr"`
	RaftAddr string `json:"raftAddr"`
}

// SetState is one broker set as this node's state holds it.
type SetState struct {
	ClusterName       string        `json:"clusterName"`
	BrokerName        string        `json:"brokerName"`
	MasterBrokerID    *int64        `json:"masterBrokerId"`
	MasterEpoch       int32         `json:"masterEpoch"`
	SyncStateSetEpoch int32         `json:"syncStateSetEpoch"`
	SyncStateSet      []int64       `json:"syncStateSet"`
	NextBrokerID      int64         `json:"nextBrokerId"`
	Members           []MemberState `json:"members"`
}

// MemberState is one member with this node's view of its liveness.
type MemberState struct {
	BrokerID int64  `json:"brokerId"`
	Address  string `json:"address"`
	Alive    bool   `json:"alive"`
}

// Status reads the node now.
func (n *Node) Status() Status {
	stats := n.raftStats()
	st := Status{Self: n.self.ID, Group: n.group, Role: n.raft.State().String(), Serving: n.Serving(),
		Term: stats["term"], LastIndex: stats["last_log_index"], AppliedIndex: stats["applied_index"],
		SnapshotIndex: stats["last_snapshot_index"], LiveBrokers: n.live.size(), BrokerSets: []SetState{}, Removed: n.removed.Load()}
	if err := n.Down(); err != nil {
		st.Down = err.Error()
	}
	if leader, ok := n.Leader(); ok {
		st.LeaderID, st.LeaderAddress = leader.ID, leader.Addr
	}
	for _, p := range n.peerList() {
		st.Peers = append(st.Peers, PeerState{ID: p.ID, Addr: p.Addr, RaftAddr: p.RaftAddr})
	}
	n.fsm.Read(func(s *controller.State) {
		for _, name := range s.BrokerNames() {
			ri, _ := s.ReplicaInfo(name)
			ss, _ := s.SyncStateInfo(name)
			set := SetState{ClusterName: ri.ClusterName, BrokerName: name, MasterEpoch: ss.MasterEpoch,
				SyncStateSetEpoch: ss.SyncStateSetEpoch, SyncStateSet: ss.SyncStateSet, NextBrokerID: ri.NextBrokerID,
				Members: []MemberState{}}
			if ss.HasMaster {
				id := ss.MasterBrokerID
				set.MasterBrokerID = &id
			}
			for _, id := range ri.IDs() {
				set.Members = append(set.Members, MemberState{BrokerID: id, Address: ri.Brokers[id].Address,
					Alive: n.live.Alive(ri.ClusterName, name, id)})
			}
			st.BrokerSets = append(st.BrokerSets, set)
		}
	})
	return st
}
