package wire

// Request and response headers of the controller's codes, field names as in
// Java's classes under remoting/.../protocol/header/controller (and
// header/namesrv for the heartbeat). Long/Integer fields Java may leave null
// are pointers; primitives are plain values.

// AlterSyncStateSetRequest is CONTROLLER_ALTER_SYNC_STATE_SET's (1001) header.
type AlterSyncStateSetRequest struct {
	BrokerName     string `rmq:"brokerName,required"`
	MasterBrokerID int64  `rmq:"masterBrokerId,required"`
	MasterEpoch    int32  `rmq:"masterEpoch,required"`
	InvokeTime     int64  `rmq:"invokeTime"`
}

// AlterSyncStateSetResponse answers 1001.
type AlterSyncStateSetResponse struct {
	NewSyncStateSetEpoch int32 `rmq:"newSyncStateSetEpoch"`
}

// ElectMasterRequest is CONTROLLER_ELECT_MASTER's (1002) header; use
// NewElectMasterRequest for Java's defaults. No field is required: Java's
// @CFNotNull fields all have initial values, so an absent one takes its
// default (clusterName "", brokerName "", brokerId -1, designateElect
// false) and the request is served, as the Java 5.3.3 controller does.
type ElectMasterRequest struct {
	ClusterName    string `rmq:"clusterName"`
	BrokerName     string `rmq:"brokerName"`
	BrokerID       int64  `rmq:"brokerId"`
	DesignateElect bool   `rmq:"designateElect"`
	InvokeTime     int64  `rmq:"invokeTime"`
}

// NewElectMasterRequest has Java's defaults: no broker (-1), not designated.
func NewElectMasterRequest() *ElectMasterRequest { return &ElectMasterRequest{BrokerID: -1} }

// ControllerTriggered says the controller itself asked (Java's
// ofControllerTrigger: brokerId -1), which turns a failed election into
// MASTER_NOT_AVAILABLE and a cleared master.
func (r *ElectMasterRequest) ControllerTriggered() bool { return r.BrokerID == -1 }

// ElectMasterResponse answers 1002.
type ElectMasterResponse struct {
	MasterBrokerID    *int64  `rmq:"masterBrokerId"`
	MasterAddress     *string `rmq:"masterAddress"`
	MasterEpoch       *int32  `rmq:"masterEpoch"`
	SyncStateSetEpoch *int32  `rmq:"syncStateSetEpoch"`
}

// RegisterBrokerRequest is CONTROLLER_REGISTER_BROKER's (1003) header
// (Java's RegisterBrokerToControllerRequestHeader).
type RegisterBrokerRequest struct {
	ClusterName   string `rmq:"clusterName"`
	BrokerName    string `rmq:"brokerName,required"`
	BrokerID      int64  `rmq:"brokerId,required"`
	BrokerAddress string `rmq:"brokerAddress,required"`
	InvokeTime    int64  `rmq:"invokeTime"`
}

// RegisterBrokerResponse answers 1003; the master fields only when a master
// exists and is alive. clusterName echoes the request's and is left out when
// the request had none (Java's null), as in 1012's and 1013's answers.
type RegisterBrokerResponse struct {
	ClusterName       string  `rmq:"clusterName,omitempty"`
	BrokerName        string  `rmq:"brokerName"`
	MasterBrokerID    *int64  `rmq:"masterBrokerId"`
	MasterAddress     *string `rmq:"masterAddress"`
	MasterEpoch       *int32  `rmq:"masterEpoch"`
	SyncStateSetEpoch *int32  `rmq:"syncStateSetEpoch"`
}

// GetReplicaInfoRequest is CONTROLLER_GET_REPLICA_INFO's (1004) header.
type GetReplicaInfoRequest struct {
	BrokerName string `rmq:"brokerName,required"`
}

// GetReplicaInfoResponse answers 1004.
type GetReplicaInfoResponse struct {
	MasterBrokerID *int64  `rmq:"masterBrokerId"`
	MasterAddress  *string `rmq:"masterAddress"`
	MasterEpoch    *int32  `rmq:"masterEpoch"`
}

// GetMetaDataResponse answers CONTROLLER_GET_METADATA_INFO (1005), from any node.
type GetMetaDataResponse struct {
	Group                   string `rmq:"group" json:"group"`
	ControllerLeaderID      string `rmq:"controllerLeaderId" json:"controllerLeaderId"`
	ControllerLeaderAddress string `rmq:"controllerLeaderAddress" json:"controllerLeaderAddress"`
	IsLeader                bool   `rmq:"isLeader" json:"isLeader"`
	Peers                   string `rmq:"peers" json:"peers"`
}

// CleanBrokerDataRequest is CLEAN_BROKER_DATA's (1011) header (Java's
// CleanControllerBrokerDataRequestHeader).
type CleanBrokerDataRequest struct {
	ClusterName                string `rmq:"clusterName"`
	BrokerName                 string `rmq:"brokerName,required"`
	BrokerControllerIdsToClean string `rmq:"brokerControllerIdsToClean"`
	IsCleanLivingBroker        bool   `rmq:"isCleanLivingBroker"`
	InvokeTime                 int64  `rmq:"invokeTime"`
}

// GetNextBrokerIDRequest is CONTROLLER_GET_NEXT_BROKER_ID's (1012) header;
// clusterName is optional, as in Java (only echoed).
type GetNextBrokerIDRequest struct {
	ClusterName string `rmq:"clusterName"`
	BrokerName  string `rmq:"brokerName,required"`
}

// GetNextBrokerIDResponse answers 1012.
type GetNextBrokerIDResponse struct {
	ClusterName  string `rmq:"clusterName,omitempty"`
	BrokerName   string `rmq:"brokerName"`
	NextBrokerID int64  `rmq:"nextBrokerId"`
}

// ApplyBrokerIDRequest is CONTROLLER_APPLY_BROKER_ID's (1013) header; the
// check code is "brokerAddr;epochMillis". clusterName is optional, as in
// Java (it names a new set's cluster, "" without it).
type ApplyBrokerIDRequest struct {
	ClusterName       string `rmq:"clusterName"`
	BrokerName        string `rmq:"brokerName,required"`
	AppliedBrokerID   int64  `rmq:"appliedBrokerId,required"`
	RegisterCheckCode string `rmq:"registerCheckCode,required"`
}

// ApplyBrokerIDResponse answers 1013.
type ApplyBrokerIDResponse struct {
	ClusterName string `rmq:"clusterName,omitempty"`
	BrokerName  string `rmq:"brokerName"`
}

// BrokerHeartbeatRequest is BROKER_HEARTBEAT's (904) header as a controller
// reads it; absent numbers stay nil and take the heartbeat table's defaults.
type BrokerHeartbeatRequest struct {
	ClusterName           string `rmq:"clusterName"`
	BrokerAddr            string `rmq:"brokerAddr"`
	BrokerName            string `rmq:"brokerName,required"`
	BrokerID              *int64 `rmq:"brokerId"`
	Epoch                 *int32 `rmq:"epoch"`
	MaxOffset             *int64 `rmq:"maxOffset"`
	ConfirmOffset         *int64 `rmq:"confirmOffset"`
	HeartbeatTimeoutMills *int64 `rmq:"heartbeatTimeoutMills"`
	ElectionPriority      *int32 `rmq:"electionPriority"`
}

// NotifyBrokerRoleChangedRequest is NOTIFY_BROKER_ROLE_CHANGED's (1008)
// header, sent by the controller leader to live members after an election.
type NotifyBrokerRoleChangedRequest struct {
	MasterAddress     string `rmq:"masterAddress"`
	MasterEpoch       int32  `rmq:"masterEpoch"`
	SyncStateSetEpoch int32  `rmq:"syncStateSetEpoch"`
	MasterBrokerID    int64  `rmq:"masterBrokerId"`
}
