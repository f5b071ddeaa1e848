package controller

import (
	"fmt"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// ElectMaster validates CONTROLLER_ELECT_MASTER: the set must be known; the
// first election of a set (masterEpoch 0) goes to the requesting broker
// outright, with no liveness check; otherwise Elect decides, with the
// requester as the designated broker when designateElect is set. The old
// master kept answers MASTER_STILL_EXIST with the current master; a new one
// is an ElectMasterEvent; nobody electable is, when the controller asked
// (brokerId -1), a cleared master (ElectMasterEvent not elected) and
// MASTER_NOT_AVAILABLE, and otherwise ELECT_MASTER_FAILED with no change.
func (s *State) ElectMaster(req *wire.ElectMasterRequest, cfg ElectConfig, live Liveness) *Result[wire.ElectMasterResponse] {
	res := &Result[wire.ElectMasterResponse]{}
	r, ss, ok := s.set(req.BrokerName)
	if !ok {
		return res.fail(CodeBrokerNeedToBeRegistered, "Broker hasn't been registered")
	}
	var all []int64
	if cfg.EnableElectUncleanMaster {
		all = r.IDs()
	}
	newMaster, elected := req.BrokerID, ss.MasterEpoch == 0
	if !elected || newMaster == -1 {
		var preferred *int64
		if req.DesignateElect {
			preferred = ptr(req.BrokerID)
		}
		newMaster, elected = Elect(live, r.ClusterName, r.BrokerName, ss.SyncStateSet, all, ss.master(), preferred)
	}
	if elected && ss.HasMaster && newMaster == ss.MasterBrokerID {
		res.Header = wire.ElectMasterResponse{MasterBrokerID: ss.master(), MasterAddress: r.addressPtr(ss.master()),
			MasterEpoch: ptr(ss.MasterEpoch), SyncStateSetEpoch: ptr(ss.SyncStateSetEpoch)}
		res.Body = (&wire.ElectMasterResponseBody{SyncStateSet: ss.SyncStateSet}).Encode()
		return res.fail(CodeMasterStillExist, fmt.Sprintf(
			"The old master %d is still alive, not need to elect new master for broker %s", newMaster, r.BrokerName))
	}
	if elected {
		res.Header = wire.ElectMasterResponse{MasterBrokerID: ptr(newMaster), MasterAddress: r.addressPtr(&newMaster),
			MasterEpoch: ptr(ss.MasterEpoch + 1), SyncStateSetEpoch: ptr(ss.SyncStateSetEpoch + 1)}
		addrs := make(map[int64]string, len(r.Brokers))
		for id, b := range r.Brokers {
			addrs[id] = b.Address
		}
		res.Body = (&wire.ElectMasterResponseBody{SyncStateSet: []int64{newMaster},
			BrokerMemberGroup: &wire.BrokerMemberGroup{Cluster: r.ClusterName, BrokerName: r.BrokerName, BrokerAddrs: addrs},
		}).Encode()
		res.Events = []Event{ElectMasterEvent{NewMasterElected: true, BrokerName: req.BrokerName, NewMasterBrokerID: newMaster}}
		return res
	}
	if req.ControllerTriggered() {
		res.Events = []Event{ElectMasterEvent{NewMasterElected: false, BrokerName: req.BrokerName}}
		return res.fail(CodeMasterNotAvailable, "Old master has down and failed to elect a new broker master")
	}
	return res.fail(CodeElectMasterFailed, "Failed to elect a new master")
}
