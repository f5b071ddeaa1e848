package node

import "github.com/gonamesrv/gonamesrv/controller/config"

// peerList is the group's current peers, this node included: the one
// source the liveness questions (agree.go) read them from. Today the peers
// read at start; it becomes the live membership when that changes online.
func (n *Node) peerList() []config.Peer { return n.peers }
