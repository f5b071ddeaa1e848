package node

import (
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/raft"
)

// rpcGuard is the transport hashicorp/raft consumes RPCs from: it answers
// the ones raft would panic on, or take in part before the log guard
// refuses them, with an error before raft sees them:
//   - an InstallSnapshot whose configuration does not decode (raft decodes
//     it with DecodeConfiguration, which panics, before anything else);
//   - an AppendEntries holding an entry checkEntry refuses (raft would
//     first take the sender's term and leader, and maybe truncate its log).
//
// Everything else is passed on as it came; heartbeats never reach it (the
// NetworkTransport answers them on its fast path). It embeds the transport
// for the rest of raft.Transport, WithPreVote and WithClose; raft closes it
// on Shutdown, which ends the forwarding.
type rpcGuard struct {
	guardedTransport
	entries *logGuard
	ch      chan raft.RPC
	done    chan struct{}
	close   sync.Once
}

// guardedTransport is what rpcGuard wraps: a NetworkTransport, whatever
// its stream layer.
type guardedTransport interface {
	raft.Transport
	raft.WithPreVote
	raft.WithClose
}

// errRefusedRPC prefixes the error a refused RPC is answered with.
var errRefusedRPC = errors.New("refused by this controller node")

func newRPCGuard(trans guardedTransport, entries *logGuard) *rpcGuard {
	g := &rpcGuard{guardedTransport: trans, entries: entries, ch: make(chan raft.RPC), done: make(chan struct{})}
	go g.forward()
	return g
}

func (g *rpcGuard) Consumer() <-chan raft.RPC { return g.ch }

// Close ends the forwarding and closes the transport.
func (g *rpcGuard) Close() error {
	g.close.Do(func() { close(g.done) })
	return g.guardedTransport.Close()
}

func (g *rpcGuard) forward() {
	in := g.guardedTransport.Consumer()
	for {
		var rpc raft.RPC
		select {
		case rpc = <-in:
		case <-g.done:
			return
		}
		if g.refuse(rpc) {
			continue
		}
		select {
		case g.ch <- rpc:
		case <-g.done:
			rpc.Respond(nil, raft.ErrRaftShutdown)
			return
		}
	}
}

// refuse answers rpc with an error if raft must not see it.
func (g *rpcGuard) refuse(rpc raft.RPC) bool {
	switch req := rpc.Command.(type) {
	case *raft.AppendEntriesRequest:
		if err := g.entries.check(req.Entries); err != nil {
			rpc.Respond(&raft.AppendEntriesResponse{}, fmt.Errorf("%w: %v", errRefusedRPC, err))
			return true
		}
	case *raft.InstallSnapshotRequest:
		if req.SnapshotVersion > 0 {
			if err := decodeConfiguration(req.Configuration); err != nil {
				// Counted and logged as the configuration entry it carries.
				_ = g.entries.check([]*raft.Log{{Index: req.ConfigurationIndex, Term: req.Term, Type: raft.LogConfiguration, Data: req.Configuration}})
				rpc.Respond(&raft.InstallSnapshotResponse{}, fmt.Errorf("%w: snapshot configuration: %v", errRefusedRPC, err))
				return true
			}
		}
	}
	return false
}
