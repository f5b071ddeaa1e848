package wire

import (
	"encoding/json"
	"fmt"
)

// AddControllerPeerRequest is 5022's header: the peer to add as a voter in
// controllerDLegerPeers' form, "id-host:port" (its Raft port is that port +
// controllerRaftPortOffset, as for the listed peers).
type AddControllerPeerRequest struct {
	Peer string `rmq:"peer,required"`
}

// RemoveControllerPeerRequest is 5023's header: the id of the voter to
// remove.
type RemoveControllerPeerRequest struct {
	ID string `rmq:"id,required"`
}

// ControllerPeer is one voter of the group.
type ControllerPeer struct {
	ID       string `json:"id"`
	Addr     string `json:"addr"`
	RaftAddr string `json:"raftAddr"`
}

// ControllerPeers is the body of 5022's and 5023's success: the voters
// after the change, and the index of the configuration entry that made it
// (0 when nothing changed).
type ControllerPeers struct {
	Voters []ControllerPeer `json:"voters"`
	Index  uint64           `json:"index"`
}

// MaxControllerPeersBody bounds the answer a client reads: a few voters,
// each an id and two addresses.
const MaxControllerPeersBody = 64 << 10

// Encode is the JSON body.
func (p *ControllerPeers) Encode() []byte {
	b, _ := json.Marshal(p)
	return b
}

// DecodeControllerPeers reads the body of 5022's or 5023's answer.
func DecodeControllerPeers(body []byte) (*ControllerPeers, error) {
	if len(body) > MaxControllerPeersBody {
		return nil, fmt.Errorf("controller peers: body of %d bytes, at most %d", len(body), MaxControllerPeersBody)
	}
	var p ControllerPeers
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("controller peers: %w", err)
	}
	return &p, nil
}
