package controller

import (
	"fmt"
	"slices"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// AlterSyncStateSet validates CONTROLLER_ALTER_SYNC_STATE_SET in Java's
// order: the set exists; the new set differs from the recorded one; the
// requester is the recorded master; its masterEpoch and syncStateSetEpoch
// are current; every id is a member and alive; the new set holds the master.
// The answer carries the epoch the event will produce.
func (s *State) AlterSyncStateSet(req *wire.AlterSyncStateSetRequest, body *wire.SyncStateSet, live Liveness) *Result[wire.AlterSyncStateSetResponse] {
	res := &Result[wire.AlterSyncStateSetResponse]{}
	r, ss, ok := s.set(req.BrokerName)
	if !ok {
		return res.fail(CodeAlterSyncStateSetFailed, "Broker metadata is not existed")
	}
	newSet := wire.SortedIDs(body.SyncStateSet)
	if slices.Equal(newSet, ss.SyncStateSet) {
		return res.fail(CodeAlterSyncStateSetFailed,
			"The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet")
	}
	if !ss.HasMaster || ss.MasterBrokerID != req.MasterBrokerID {
		return res.fail(CodeInvalidMaster, fmt.Sprintf(
			"Rejecting alter syncStateSet request because the current leader is:{%s}, not {%d}",
			javaID(ss.master()), req.MasterBrokerID))
	}
	if req.MasterEpoch != ss.MasterEpoch {
		return res.fail(CodeFencedMasterEpoch, fmt.Sprintf(
			"Rejecting alter syncStateSet request because the current master epoch is:{%d}, not {%d}",
			ss.MasterEpoch, req.MasterEpoch))
	}
	if body.SyncStateSetEpoch != ss.SyncStateSetEpoch {
		return res.fail(CodeFencedSyncStateSetEpoch, fmt.Sprintf(
			"Rejecting alter syncStateSet request because the current syncStateSet epoch is:{%d}, not {%d}",
			ss.SyncStateSetEpoch, body.SyncStateSetEpoch))
	}
	for _, id := range newSet {
		if _, ok := r.Brokers[id]; !ok {
			return res.fail(CodeInvalidReplicas, fmt.Sprintf(
				"Rejecting alter syncStateSet request because the replicas {%d} don't exist", id))
		}
		if !live.Alive(r.ClusterName, r.BrokerName, id) {
			return res.fail(CodeBrokerNotAlive, fmt.Sprintf(
				"Rejecting alter syncStateSet request because the replicas {%d} don't alive", id))
		}
	}
	if !slices.Contains(newSet, ss.MasterBrokerID) {
		return res.fail(CodeAlterSyncStateSetFailed, fmt.Sprintf(
			"Rejecting alter syncStateSet request because the newSyncStateSet don't contains origin leader {%d}",
			ss.MasterBrokerID))
	}
	epoch := ss.SyncStateSetEpoch + 1
	res.Header.NewSyncStateSetEpoch = epoch
	res.Body = (&wire.SyncStateSet{SyncStateSet: newSet, SyncStateSetEpoch: epoch}).Encode()
	res.Events = []Event{AlterSyncStateSetEvent{BrokerName: req.BrokerName, NewSyncStateSet: newSet}}
	return res
}

// javaID prints an optional id as Java's String.format("%s") does a Long.
func javaID(id *int64) string {
	if id == nil {
		return "null"
	}
	return fmt.Sprint(*id)
}
