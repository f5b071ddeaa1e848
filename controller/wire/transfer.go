package wire

// CodeTransferControllerLeader is ours, not Java's (Java's controller has no
// way to move its leadership, apache/rocketmq #4835): the controller leader
// hands the Raft leadership to another voter (TargetID, or the most
// up-to-date one) and answers once the new leader serves. A follower answers
// CONTROLLER_NOT_LEADER naming the leader, as for every state request. A
// Java controller answers it REQUEST_CODE_NOT_SUPPORTED (3).
const CodeTransferControllerLeader int32 = 5021

// MaxNodeIDBytes bounds a node id a request names (TargetID): longer ones
// cannot be a peer's and are refused before any lookup or log line.
const MaxNodeIDBytes = 256

// TransferLeaderRequest is 5021's header: the node id (as in
// controllerDLegerPeers) to hand the lead to; "" lets Raft pick the most
// up-to-date voter.
type TransferLeaderRequest struct {
	TargetID string `rmq:"targetId" json:"targetId,omitempty"`
}

// TransferLeaderResponse answers 5021: the leader that gave the lead up, the
// one that serves now, and how long no node served (from the moment the old
// leader stopped accepting writes to the new one's first answer as a
// serving leader, as the old leader measured it).
type TransferLeaderResponse struct {
	OldLeaderID      string `rmq:"oldLeaderId" json:"oldLeaderId"`
	OldLeaderAddress string `rmq:"oldLeaderAddress" json:"oldLeaderAddress"`
	NewLeaderID      string `rmq:"newLeaderId" json:"newLeaderId"`
	NewLeaderAddress string `rmq:"newLeaderAddress" json:"newLeaderAddress"`
	WindowMillis     int64  `rmq:"windowMillis" json:"windowMillis"`
}
