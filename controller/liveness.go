package controller

// BrokerLiveInfo is what the election policy compares of a live broker: its
// last heartbeat's HA epoch, max physical offset and election priority
// (lower is preferred).
type BrokerLiveInfo struct {
	BrokerID         int64
	Epoch            int32
	MaxOffset        int64
	ElectionPriority int32
}

// Liveness is the caller's view of which brokers are alive, evaluated at one
// moment the caller chose (the heartbeat table is local to each node and
// outside the replicated state, as in Java's DLedger mode).
type Liveness interface {
	// Alive says whether a member's heartbeat has not expired.
	Alive(clusterName, brokerName string, id int64) bool
	// LiveInfo returns a live member's last heartbeat figures.
	LiveInfo(clusterName, brokerName string, id int64) (BrokerLiveInfo, bool)
}
