package node

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// A removed follower does not always get the entry that removes it:
// hashicorp's leader stops replicating to it at once, with one last try
// that a busy or restarting node misses. It then sits without a leader,
// campaigning (the members refuse its votes: it is not in their
// configuration) with its old configuration, which still lists it. So a
// member that hears no leader asks the others' 1005: when a serving leader
// names its peers without this node, twice, removalProbeInterval apart,
// it was removed. Twice, so that a deposed leader still answering from an
// old configuration for the moment of its lease cannot remove a node.
const (
	// removalProbeInterval paces the questions of a node without a leader.
	removalProbeInterval = 2 * time.Second
	// removalProbeTimeout bounds one peer's dial and answer.
	removalProbeTimeout = time.Second
)

// probeRemoval asks the peers, once per removalProbeInterval, whether the
// leader still lists this node (watchMembers): while a configuration that
// lists it (listed) brings no leader, and while one that does not list it
// was never preceded by one that did (see refreshMembers).
func (n *Node) probeRemoval(c raft.Configuration, listed bool) {
	if _, leader := n.raft.LeaderWithID(); listed && leader != "" {
		n.removalSeen = 0
		return
	}
	now := time.Now()
	if now.Sub(n.lastProbe) < removalProbeInterval {
		return
	}
	n.lastProbe = now
	md, ok := n.servingLeaderOf(c)
	if !ok {
		return
	}
	if listsPeer(md.Peers, n.self.ID) {
		n.removalSeen = 0
		return
	}
	n.removalSeen++
	n.log.WithFields(logrus.Fields{"leader": md.ControllerLeaderID, "peers": md.Peers, "times": n.removalSeen}).
		Info("the controller leader does not list this node")
	if n.removalSeen >= 2 {
		n.lastLeader.Store(&config.Peer{ID: md.ControllerLeaderID, Addr: md.ControllerLeaderAddress})
		n.markRemoved("the leader " + md.ControllerLeaderID + " does not list this node (its removal entry never reached it)")
	}
}

// servingLeaderOf is the 1005 answer of the first member of c (this node
// left out) that says it leads; false when none does.
func (n *Node) servingLeaderOf(c raft.Configuration) (*wire.GetMetaDataResponse, bool) {
	for _, s := range c.Servers {
		if string(s.ID) == n.self.ID {
			continue
		}
		p := n.Config().PeerOfRaft(string(s.ID), string(s.Address), n.listed)
		if md, ok := n.metadataOf(p.Addr); ok && md.IsLeader {
			return md, true
		}
	}
	return nil, false
}

// learnLeader asks the members of c which of them leads when this node
// knows no leader to name: a removed follower stops hearing its leader at
// once, and hashicorp forgets the leader at the next heartbeat timeout,
// which may come before the members poll that would have kept it. A
// removed node answers CONTROLLER_NOT_LEADER naming the leader it knew;
// without one, a client has no node to go to.
func (n *Node) learnLeader(c raft.Configuration) {
	if n.lastLeader.Load() != nil {
		return
	}
	if md, ok := n.servingLeaderOf(c); ok {
		n.lastLeader.Store(&config.Peer{ID: md.ControllerLeaderID, Addr: md.ControllerLeaderAddress})
	}
}

// metadataOf is addr's 1005 answer.
func (n *Node) metadataOf(addr string) (*wire.GetMetaDataResponse, bool) {
	if addr == "" {
		return nil, false
	}
	cl := n.client(addr, removalProbeTimeout, removalProbeTimeout)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*removalProbeTimeout)
	defer cancel()
	resp, err := cl.Invoke(ctx, remoting.NewRequest(wire.CodeGetMetadataInfo, nil, nil))
	if err != nil || resp.Code != remoting.SUCCESS {
		return nil, false
	}
	var md wire.GetMetaDataResponse
	if err := remoting.DecodeHeader(resp, &md); err != nil {
		return nil, false
	}
	return &md, true
}

// listsPeer says whether 1005's "id:addr;" text lists id.
func listsPeer(text, id string) bool {
	for _, item := range strings.Split(text, ";") {
		if got, _, ok := strings.Cut(item, ":"); ok && got == id {
			return true
		}
	}
	return false
}
