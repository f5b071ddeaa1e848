package controller

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// GetNextBrokerID answers CONTROLLER_GET_NEXT_BROKER_ID (a read): the set's
// next id, 1 for an unknown set.
func (s *State) GetNextBrokerID(req *wire.GetNextBrokerIDRequest) *Result[wire.GetNextBrokerIDResponse] {
	res := &Result[wire.GetNextBrokerIDResponse]{Header: wire.GetNextBrokerIDResponse{
		ClusterName: req.ClusterName, BrokerName: req.BrokerName, NextBrokerID: FirstBrokerID}}
	if r, ok := s.replicas[req.BrokerName]; ok {
		res.Header.NextBrokerID = r.NextBrokerID
	}
	return res
}

// ApplyBrokerID validates CONTROLLER_APPLY_BROKER_ID: an unknown set accepts
// only id 1; a known set accepts an id not yet held, or held with the same
// check code (a retry is idempotent). The address is the check code up to its
// first ';'.
func (s *State) ApplyBrokerID(req *wire.ApplyBrokerIDRequest) *Result[wire.ApplyBrokerIDResponse] {
	res := &Result[wire.ApplyBrokerIDResponse]{Header: wire.ApplyBrokerIDResponse{
		ClusterName: req.ClusterName, BrokerName: req.BrokerName}}
	addr, _, _ := strings.Cut(req.RegisterCheckCode, ";")
	ev := ApplyBrokerIDEvent{ClusterName: req.ClusterName, BrokerName: req.BrokerName, BrokerAddress: addr,
		RegisterCheckCode: req.RegisterCheckCode, NewBrokerID: req.AppliedBrokerID}
	r, ok := s.replicas[req.BrokerName]
	if !ok {
		if req.AppliedBrokerID != FirstBrokerID {
			return res.fail(CodeBrokerIDInvalid, fmt.Sprintf(
				"Broker-set: %s hasn't been registered in controller, but broker try to apply brokerId: %d",
				req.BrokerName, req.AppliedBrokerID))
		}
		ev.Identity = newSetIdentity()
		res.Events = []Event{ev}
		return res
	}
	if held, ok := r.Brokers[req.AppliedBrokerID]; !ok || held.RegisterCheckCode == req.RegisterCheckCode {
		res.Events = []Event{ev}
		return res
	}
	return res.fail(CodeBrokerIDInvalid, fmt.Sprintf("Fail to apply brokerId: %d in broker-set: %s",
		req.AppliedBrokerID, req.BrokerName))
}

// RegisterBroker validates CONTROLLER_REGISTER_BROKER: the set and the id
// must be known; the answer names the master only when one is recorded and
// alive; a changed address becomes an UpdateBrokerAddressEvent.
func (s *State) RegisterBroker(req *wire.RegisterBrokerRequest, live Liveness) *Result[wire.RegisterBrokerResponse] {
	res := &Result[wire.RegisterBrokerResponse]{Header: wire.RegisterBrokerResponse{
		ClusterName: req.ClusterName, BrokerName: req.BrokerName}}
	r, ss, ok := s.set(req.BrokerName)
	if !ok {
		return res.fail(CodeBrokerNeedToBeRegistered, fmt.Sprintf(
			"Broker-set: %s hasn't been registered in controller", req.BrokerName))
	}
	held, ok := r.Brokers[req.BrokerID]
	if !ok {
		return res.fail(CodeBrokerNeedToBeRegistered, fmt.Sprintf(
			"BrokerId: %d hasn't been registered in broker-set: %s", req.BrokerID, req.BrokerName))
	}
	if ss.HasMaster && live.Alive(req.ClusterName, req.BrokerName, ss.MasterBrokerID) {
		h := &res.Header
		h.MasterBrokerID = ss.master()
		h.MasterAddress = r.addressPtr(ss.master())
		h.MasterEpoch, h.SyncStateSetEpoch = ptr(ss.MasterEpoch), ptr(ss.SyncStateSetEpoch)
	}
	res.Body = syncStateSetBody(ss)
	if held.Address != req.BrokerAddress {
		res.Events = []Event{UpdateBrokerAddressEvent{ClusterName: req.ClusterName, BrokerName: req.BrokerName,
			BrokerAddress: req.BrokerAddress, BrokerID: req.BrokerID}}
	}
	return res
}

func syncStateSetBody(ss *SyncStateInfo) []byte {
	return (&wire.SyncStateSet{SyncStateSet: ss.SyncStateSet, SyncStateSetEpoch: ss.SyncStateSetEpoch}).Encode()
}

// addressPtr is Java's getBrokerAddress: nil for a nil or unknown id.
func (r *ReplicaInfo) addressPtr(id *int64) *string {
	if id == nil {
		return nil
	}
	b, ok := r.Brokers[*id]
	if !ok {
		return nil
	}
	return &b.Address
}

func ptr[T any](v T) *T { return &v }
