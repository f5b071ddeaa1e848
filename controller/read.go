package controller

import (
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// GetReplicaInfo answers CONTROLLER_GET_REPLICA_INFO (a read).
func (s *State) GetReplicaInfo(req *wire.GetReplicaInfoRequest) *Result[wire.GetReplicaInfoResponse] {
	res := &Result[wire.GetReplicaInfoResponse]{}
	r, ss, ok := s.set(req.BrokerName)
	if !ok {
		return res.fail(CodeBrokerMetadataNotExist, "Broker metadata is not existed")
	}
	res.Header = wire.GetReplicaInfoResponse{MasterBrokerID: ss.master(), MasterAddress: r.addressPtr(ss.master()),
		MasterEpoch: ptr(ss.MasterEpoch)}
	res.Body = syncStateSetBody(ss)
	return res
}

// GetSyncStateData answers CONTROLLER_GET_SYNC_STATE_DATA (a read) for the
// named sets; unknown names are left out. Empty or absent names are the
// handler's to refuse (Java answers code 1 before reaching here).
func (s *State) GetSyncStateData(brokerNames []string, live Liveness) *Result[struct{}] {
	info := wire.BrokerReplicasInfo{ReplicasInfoTable: map[string]wire.ReplicasInfo{}}
	for _, name := range brokerNames {
		r, ss, ok := s.set(name)
		if !ok {
			continue
		}
		ri := wire.ReplicasInfo{MasterBrokerID: ss.master(), MasterAddress: r.addressPtr(ss.master()),
			MasterEpoch: ss.MasterEpoch, SyncStateSetEpoch: ss.SyncStateSetEpoch,
			InSyncReplicas: []wire.ReplicaIdentity{}, NotInSyncReplicas: []wire.ReplicaIdentity{}}
		for _, id := range r.IDs() {
			replica := wire.ReplicaIdentity{Alive: live.Alive(r.ClusterName, name, id),
				BrokerAddress: r.Brokers[id].Address, BrokerID: id, BrokerName: name}
			if ss.inSync(id) {
				ri.InSyncReplicas = append(ri.InSyncReplicas, replica)
			} else {
				ri.NotInSyncReplicas = append(ri.NotInSyncReplicas, replica)
			}
		}
		info.ReplicasInfoTable[name] = ri
	}
	return &Result[struct{}]{Body: info.Encode()}
}

// ScanNeedReelect returns, sorted, the sets whose recorded master is not
// alive while some member is (Java's scanNeedReelectBrokerSets, the leader's
// inactive-master scan, with its predicate the right way round).
func (s *State) ScanNeedReelect(live Liveness) []string {
	var names []string
	for _, name := range s.BrokerNames() {
		r, ss, ok := s.set(name)
		if !ok || !ss.HasMaster || live.Alive(ss.ClusterName, name, ss.MasterBrokerID) {
			continue
		}
		for _, id := range r.IDs() {
			if live.Alive(ss.ClusterName, name, id) {
				names = append(names, name)
				break
			}
		}
	}
	return names
}
