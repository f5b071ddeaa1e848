package wire

// Request codes the controller serves or sends (Java's RequestCode).
const (
	CodeAlterSyncStateSet       int32 = 1001
	CodeElectMaster             int32 = 1002
	CodeRegisterBroker          int32 = 1003
	CodeGetReplicaInfo          int32 = 1004
	CodeGetMetadataInfo         int32 = 1005
	CodeGetSyncStateData        int32 = 1006
	CodeNotifyBrokerRoleChanged int32 = 1008
	CodeUpdateControllerConfig  int32 = 1009
	CodeGetControllerConfig     int32 = 1010
	CodeCleanBrokerData         int32 = 1011
	CodeGetNextBrokerID         int32 = 1012
	CodeApplyBrokerID           int32 = 1013
	CodeBrokerHeartbeat         int32 = 904
)

// Go-extension codes of the controller's port (no Java controller serves
// them): membership changed online (membership.go).
const (
	CodeAddControllerPeer    int32 = 5022
	CodeRemoveControllerPeer int32 = 5023
)

// LeaderAddressExt is the ext field of a CONTROLLER_NOT_LEADER answer that
// names the leader's broker-facing address (beyond Java, whose clients
// ignore unknown ext fields); absent while no leader is known.
const LeaderAddressExt = "controllerLeaderAddress"
