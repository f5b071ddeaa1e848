package wire

// Request and response headers of the controller's codes, field names as in
// Java's classes under remoting/.../protocol/header/controller (and
// header/namesrv for the heartbeat). Long/Integer fields Java may leave null
// are pointers; primitives are plain values.

// AlterSyncStateSetRequest is CONTROLLER_ALTER_SYNC_STATE_SET's (1001) header.
type AlterSyncStateSetRequest struct {
	BrokerName     string `ext:"brokerName,required"`
	MasterBrokerID int64  `ext:"masterBrokerId,required"`
	MasterEpoch    int32  `ext:"masterEpoch,required"`
	InvokeTime     int64  `ext:"invokeTime"`
}

// AlterSyncStateSetResponse answers 1001.
type AlterSyncStateSetResponse struct {
	NewSyncStateSetEpoch int32 `ext:"newSyncStateSetEpoch"`
}

// ElectMasterRequest is CONTROLLER_ELECT_MASTER's (1002) header; use
// NewElectMasterRequest for Java's defaults.
type ElectMasterRequest struct {
	ClusterName    string `ext:"clusterName,required"`
	BrokerName     string `ext:"brokerName,required"`
	BrokerID       int64  `ext:"brokerId,required"`
	DesignateElect bool   `ext:"designateElect,required"`
	InvokeTime     int64  `ext:"invokeTime"`
}

// NewElectMasterRequest has Java's defaults: no broker (-1), not designated.
func NewElectMasterRequest() *ElectMasterRequest { return &ElectMasterRequest{BrokerID: -1} }

// ControllerTriggered says the controller itself asked (Java's
// ofControllerTrigger: brokerId -1), which turns a failed election into
// MASTER_NOT_AVAILABLE and a cleared master.
func (r *ElectMasterRequest) ControllerTriggered() bool { return r.BrokerID == -1 }

// ElectMasterResponse answers 1002.
type ElectMasterResponse struct {
	MasterBrokerID    *int64  `ext:"masterBrokerId"`
	MasterAddress     *string `ext:"masterAddress"`
	MasterEpoch       *int32  `ext:"masterEpoch"`
	SyncStateSetEpoch *int32  `ext:"syncStateSetEpoch"`
}

// RegisterBrokerRequest is CONTROLLER_REGISTER_BROKER's (1003) header
// (Java's RegisterBrokerToControllerRequestHeader).
type RegisterBrokerRequest struct {
	ClusterName   string `ext:"clusterName"`
	BrokerName    string `ext:"brokerName,required"`
	BrokerID      int64  `ext:"brokerId,required"`
	BrokerAddress string `ext:"brokerAddress,required"`
	InvokeTime    int64  `ext:"invokeTime"`
}

// RegisterBrokerResponse answers 1003; the master fields only when a master
// exists and is alive.
type RegisterBrokerResponse struct {
	ClusterName       string  `ext:"clusterName"`
	BrokerName        string  `ext:"brokerName"`
	MasterBrokerID    *int64  `ext:"masterBrokerId"`
	MasterAddress     *string `ext:"masterAddress"`
	MasterEpoch       *int32  `ext:"masterEpoch"`
	SyncStateSetEpoch *int32  `ext:"syncStateSetEpoch"`
}

// GetReplicaInfoRequest is CONTROLLER_GET_REPLICA_INFO's (1004) header.
type GetReplicaInfoRequest struct {
	BrokerName string `ext:"brokerName,required"`
}

// GetReplicaInfoResponse answers 1004.
type GetReplicaInfoResponse struct {
	MasterBrokerID *int64  `ext:"masterBrokerId"`
	MasterAddress  *string `ext:"masterAddress"`
	MasterEpoch    *int32  `ext:"masterEpoch"`
}

// GetMetaDataResponse answers CONTROLLER_GET_METADATA_INFO (1005), from any node.
type GetMetaDataResponse struct {
	Group                   string `ext:"group"`
	ControllerLeaderID      string `ext:"controllerLeaderId"`
	ControllerLeaderAddress string `ext:"controllerLeaderAddress"`
	IsLeader                bool   `ext:"isLeader"`
	Peers                   string `ext:"peers"`
}

// CleanBrokerDataRequest is CLEAN_BROKER_DATA's (1011) header (Java's
// CleanControllerBrokerDataRequestHeader).
type CleanBrokerDataRequest struct {
	ClusterName                string `ext:"clusterName"`
	BrokerName                 string `ext:"brokerName,required"`
	BrokerControllerIdsToClean string `ext:"brokerControllerIdsToClean"`
	IsCleanLivingBroker        bool   `ext:"isCleanLivingBroker"`
	InvokeTime                 int64  `ext:"invokeTime"`
}

// GetNextBrokerIDRequest is CONTROLLER_GET_NEXT_BROKER_ID's (1012) header.
type GetNextBrokerIDRequest struct {
	ClusterName string `ext:"clusterName,required"`
	BrokerName  string `ext:"brokerName,required"`
}

// GetNextBrokerIDResponse answers 1012.
type GetNextBrokerIDResponse struct {
	ClusterName  string `ext:"clusterName"`
	BrokerName   string `ext:"brokerName"`
	NextBrokerID int64  `ext:"nextBrokerId"`
}

// ApplyBrokerIDRequest is CONTROLLER_APPLY_BROKER_ID's (1013) header; the
// check code is "brokerAddr;epochMillis".
type ApplyBrokerIDRequest struct {
	ClusterName       string `ext:"clusterName,required"`
	BrokerName        string `ext:"brokerName,required"`
	AppliedBrokerID   int64  `ext:"appliedBrokerId,required"`
	RegisterCheckCode string `ext:"registerCheckCode,required"`
}

// ApplyBrokerIDResponse answers 1013.
type ApplyBrokerIDResponse struct {
	ClusterName string `ext:"clusterName"`
	BrokerName  string `ext:"brokerName"`
}

// BrokerHeartbeatRequest is BROKER_HEARTBEAT's (904) header as a controller
// reads it; absent numbers stay nil and take the heartbeat table's defaults.
type BrokerHeartbeatRequest struct {
	ClusterName           string `ext:"clusterName"`
	BrokerAddr            string `ext:"brokerAddr"`
	BrokerName            string `ext:"brokerName,required"`
	BrokerID              *int64 `ext:"brokerId"`
	Epoch                 *int32 `ext:"epoch"`
	MaxOffset             *int64 `ext:"maxOffset"`
	ConfirmOffset         *int64 `ext:"confirmOffset"`
	HeartbeatTimeoutMills *int64 `ext:"heartbeatTimeoutMills"`
	ElectionPriority      *int32 `ext:"electionPriority"`
}

// NotifyBrokerRoleChangedRequest is NOTIFY_BROKER_ROLE_CHANGED's (1008)
// header, sent by the controller leader to live members after an election.
type NotifyBrokerRoleChangedRequest struct {
	MasterAddress     string `ext:"masterAddress"`
	MasterEpoch       int32  `ext:"masterEpoch"`
	SyncStateSetEpoch int32  `ext:"syncStateSetEpoch"`
	MasterBrokerID    int64  `ext:"masterBrokerId"`
}
