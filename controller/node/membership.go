package node

// Online membership: codes 5022 (add a voter) and 5023 (remove one), and the
// side port's /v1/controller/peers (membership_http.go).
//
// What is persisted is Raft's own configuration, not a file of ours:
// hashicorp/raft writes each change as a configuration entry in the log
// (raft.db) and keeps the configuration in every snapshot's metadata, and
// NewRaft recovers the latest one at start. The node reads its members back
// from there (peerList), so the list it serves cannot disagree with the
// voters Raft counts, as a separate file could after a crash between the
// commit and the write. controllerDLegerPeers is only the group a new store
// is bootstrapped with (and, on a node that joins, where its first peers'
// hosts come from).

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
	nsroute "github.com/gonamesrv/gonamesrv/route"
)

const (
	// membersPollInterval is how often a node reads Raft's configuration
	// to follow changes the leader made (a follower learns them from the
	// log; hashicorp tells no one but the leader).
	membersPollInterval = 500 * time.Millisecond
	// maxControllerPeers bounds the voters an online add may grow the
	// group to: each one more is one more to replicate to and to count.
	maxControllerPeers = 9
	// maxPeerText bounds 5022's peer: an id, '-' and an address.
	maxPeerText = config.MaxPeerIDLength + 1 + nsroute.MaxAddrLength
	// refusedMembership labels a refused change in refusedTotal.
	refusedMembership = "membership"
)

// errPeerChange is a membership change refused for its input or for the
// group's state (code 1, HTTP 400): nothing was proposed.
var errPeerChange = errors.New("membership change refused")

// memberView is the group as the node last read it: the peers and 1005's
// peers text. Replaced whole, never changed in place.
type memberView struct {
	peers []config.Peer
	text  string
}

// removalProbe is probeRemoval's state; refreshMu serializes
// refreshMembers (watchMembers', and the leader's after a change).
type removalProbe struct {
	refreshMu   sync.Mutex
	lastProbe   time.Time
	removalSeen int
}

func newMemberView(peers []config.Peer, jraft bool) *memberView {
	return &memberView{peers: peers, text: peersText(peers, jraft)}
}

// peerList is the group's members in force: Raft's configuration as last
// read (controllerDLegerPeers until Raft has one). Every use of the peers
// reads it; the slice is shared, never to be modified.
func (n *Node) peerList() []config.Peer { return n.members.Load().peers }

// peerHosts is the hosts a Raft connection may come from: the peers' and
// the node's own.
func peerHosts(self config.Peer, peers []config.Peer) ([]string, error) {
	hosts := []string{}
	for _, p := range append([]config.Peer{self}, peers...) {
		host, _, err := net.SplitHostPort(p.RaftAddr)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(hosts, host) {
			hosts = append(hosts, host)
		}
	}
	return hosts, nil
}

// peersOf turns a Raft configuration into peers, the listed ones keeping
// their configured address.
func (n *Node) peersOf(c raft.Configuration) []config.Peer {
	cfg := n.Config()
	peers := make([]config.Peer, 0, len(c.Servers))
	for _, s := range c.Servers {
		peers = append(peers, cfg.PeerOfRaft(string(s.ID), string(s.Address), n.listed))
	}
	return peers
}

// peersForm is peers in controllerDLegerPeers' form, for the logs.
func peersForm(peers []config.Peer) string {
	parts := make([]string, len(peers))
	for i, p := range peers {
		parts[i] = p.String()
	}
	return strings.Join(parts, ";")
}

func hasMember(c raft.Configuration, id string) bool {
	return slices.ContainsFunc(c.Servers, func(s raft.Server) bool { return string(s.ID) == id })
}

// setMembers makes peers the node's members and the Raft port's allowed
// hosts; false when they were already.
func (n *Node) setMembers(peers []config.Peer) bool {
	if slices.Equal(peers, n.peerList()) {
		return false
	}
	n.members.Store(newMemberView(peers, n.Config().JRaftPeers()))
	n.syncPeerHosts()
	return true
}

// syncPeerHosts makes the Raft port's allowed hosts the members' again.
func (n *Node) syncPeerHosts() {
	if hosts, err := peerHosts(n.self, n.peerList()); err == nil && n.stream != nil {
		n.stream.SetPeerHosts(hosts)
	}
}

// adoptStoredMembers makes a restarted node's members the configuration
// its store holds, which wins over controllerDLegerPeers (the group may
// have changed online since it was bootstrapped). A node the store says was
// removed stops its Raft (unless it is set to join: it may have crashed
// between a snapshot that predates its addition and the entry adding it).
func (n *Node) adoptStoredMembers(cfg *config.Config) {
	c, _, err := n.configuration()
	if err != nil || len(c.Servers) == 0 {
		return
	}
	stored := n.peersOf(c)
	if !slices.Equal(stored, n.listed) {
		n.log.WithFields(logrus.Fields{"controllerDLegerPeers": peersForm(n.listed), "stored": peersForm(stored)}).
			Warn("the store's configuration differs from controllerDLegerPeers (members changed online): the store's is used")
	}
	n.setMembers(stored)
	switch {
	case hasMember(c, n.self.ID):
		n.wasMember.Store(true)
	case !cfg.JoinGroup:
		n.markRemoved("the store's configuration does not list this node")
	}
}

// configuration is Raft's latest configuration and its index.
func (n *Node) configuration() (raft.Configuration, uint64, error) {
	f := n.raft.GetConfiguration()
	if err := f.Error(); err != nil {
		return raft.Configuration{}, 0, err
	}
	return f.Configuration(), f.Index(), nil
}

// watchMembers follows the configuration: the peers and allowed hosts
// change with it, and a node that finds itself removed stops its Raft.
func (n *Node) watchMembers() {
	n.every(membersPollInterval, n.refreshMembers)
}

// refreshMembers reads the configuration once (watchMembers, and the
// leader right after a change).
func (n *Node) refreshMembers() {
	n.refreshMu.Lock()
	defer n.refreshMu.Unlock()
	if n.removed.Load() {
		return
	}
	if leader, ok := n.Leader(); ok && leader.ID != n.self.ID {
		n.lastLeader.Store(&leader)
	}
	if n.raft.State() == raft.Shutdown {
		// A leader that removed itself shuts its Raft down once the entry
		// commits (hashicorp's ShutdownOnRemove); any other stop is the
		// node's own (Shutdown, fail).
		if !n.draining.Load() && n.down.Load() == nil && n.wasMember.Load() {
			n.markRemoved("this leader removed itself from the group")
		}
		return
	}
	c, _, err := n.configuration()
	if err != nil || len(c.Servers) == 0 {
		return // a joining node not added yet keeps controllerDLegerPeers
	}
	before := n.peerList()
	if n.setMembers(n.peersOf(c)) {
		n.log.WithFields(logrus.Fields{"before": peersForm(before), "after": peersForm(n.peerList())}).
			Info("controller members changed")
	}
	if hasMember(c, n.self.ID) {
		n.wasMember.Store(true)
		n.probeRemoval(c, true)
		return
	}
	// Out of the configuration after being in it: removed. A leader keeps
	// running until its removal commits; it then stops itself, seen above.
	if n.wasMember.Load() {
		if n.raft.State() != raft.Leader {
			n.learnLeader(c)
			n.markRemoved("the group's configuration no longer lists this node")
		}
		return
	}
	// Out of it without this process having seen it in: a joining node
	// whose snapshot predates its addition (the entry adding it follows),
	// or one removed before this node first read the configuration. The
	// leader's answer tells them apart.
	n.probeRemoval(c, false)
}

// markRemoved stops the node's Raft for good: hashicorp leaves a removed
// follower running, and one that got its removal entry but not the commit
// campaigns again and again (the members refuse its votes, as it is not in
// their configuration). Stopped, it neither campaigns nor votes; it
// answers CONTROLLER_NOT_LEADER naming the last leader it knew, and its
// status says removed.
func (n *Node) markRemoved(why string) {
	if !n.removed.CompareAndSwap(false, true) {
		return
	}
	n.serving.Store(false)
	if err := n.stopRaft(); err != nil {
		n.log.WithError(err).Warn("stopping Raft of a removed node")
	}
	n.log.WithFields(logrus.Fields{"reason": why, "storeDir": n.storeDir}).
		Warn("this node is not a member of the controller group: Raft stopped, it neither campaigns nor votes and answers CONTROLLER_NOT_LEADER. To add it back, stop it, empty its store, start it with controllerJoinGroup=true and run addControllerPeer")
}

// raftStats is Raft's statistics; none once removed (a stopped Raft's
// would log a warning per call).
func (n *Node) raftStats() map[string]string {
	if n.removed.Load() {
		return map[string]string{}
	}
	return n.raft.Stats()
}

// refusePeer is errPeerChange with why.
func refusePeer(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errPeerChange, fmt.Sprintf(format, args...))
}

// addPeer adds text ("id-host:port") as a voter, on the leader.
func (n *Node) addPeer(text string) (*wire.ControllerPeers, error) {
	cfg := n.Config()
	if len(text) > maxPeerText {
		return nil, refusePeer("peer of %d bytes, at most %d", len(text), maxPeerText)
	}
	if cfg.JRaftPeers() {
		return nil, refusePeer("online membership needs controllerDLegerPeers (the JRaft keys give no controllerRaftPortOffset to place a new peer's Raft port)")
	}
	p, err := cfg.ParsePeer(strings.TrimSpace(text))
	if err != nil {
		return nil, refusePeer("peer %v (want id-host:port, as in controllerDLegerPeers)", err)
	}
	if strings.ContainsAny(p.ID, ";:, \t") {
		return nil, refusePeer("peer id %q: ';', ':', ',' and spaces are not allowed", p.ID)
	}
	return n.changeMembers(func(c raft.Configuration, index uint64) (raft.IndexFuture, raft.Configuration, error) {
		for _, s := range c.Servers {
			switch {
			case string(s.ID) == p.ID && string(s.Address) == p.RaftAddr:
				return nil, c, nil // already a member: nothing to do
			case string(s.ID) == p.ID:
				return nil, c, refusePeer("id %s is a member at %s: remove it first", p.ID, s.Address)
			case string(s.Address) == p.RaftAddr:
				return nil, c, refusePeer("Raft address %s is member %s's", p.RaftAddr, s.ID)
			}
		}
		if len(c.Servers) >= maxControllerPeers {
			return nil, c, refusePeer("the group has %d voters, at most %d", len(c.Servers), maxControllerPeers)
		}
		after := c.Clone()
		after.Servers = append(after.Servers, raft.Server{Suffrage: raft.Voter, ID: raft.ServerID(p.ID), Address: raft.ServerAddress(p.RaftAddr)})
		// Take the new peer's Raft connections from now on (when it
		// campaigns later, say), before followers read the entry.
		if hosts, err := peerHosts(n.self, n.peersOf(after)); err == nil {
			n.stream.SetPeerHosts(hosts)
		}
		return n.raft.AddVoter(raft.ServerID(p.ID), raft.ServerAddress(p.RaftAddr), index, n.commitTimeout()), after, nil
	})
}

// removePeer removes the voter id, on the leader (the leader itself too:
// it steps down and stops once the removal commits).
func (n *Node) removePeer(id string) (*wire.ControllerPeers, error) {
	if id == "" || len(id) > config.MaxPeerIDLength {
		return nil, refusePeer("peer id of %d bytes: 1 to %d", len(id), config.MaxPeerIDLength)
	}
	return n.changeMembers(func(c raft.Configuration, index uint64) (raft.IndexFuture, raft.Configuration, error) {
		if !hasMember(c, id) {
			return nil, c, refusePeer("%s is not a member (members: %s)", id, peersForm(n.peersOf(c)))
		}
		if len(c.Servers) == 1 {
			return nil, c, refusePeer("%s is the only member", id)
		}
		after := c.Clone()
		after.Servers = slices.DeleteFunc(after.Servers, func(s raft.Server) bool { return string(s.ID) == id })
		return n.raft.RemoveServer(raft.ServerID(id), index, n.commitTimeout()), after, nil
	})
}

// changeMembers runs one change on the leader: change reads the current
// configuration and proposes (a nil future: nothing to change), then the
// entry's commit is awaited at most controllerCommitTimeoutMillis. The
// answer is the voters after the change.
func (n *Node) changeMembers(change func(raft.Configuration, uint64) (raft.IndexFuture, raft.Configuration, error)) (*wire.ControllerPeers, error) {
	if !n.Serving() {
		return nil, errNotServing
	}
	if !n.membership.TryLock() {
		return nil, refusePeer("another membership change is in progress")
	}
	defer n.membership.Unlock()
	current, index, err := n.configuration()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotServing, err)
	}
	future, after, err := change(current, index)
	if err != nil || future == nil {
		return n.votersOf(after, 0), err
	}
	// An add let the new peer's host in ahead of the commit: whatever the
	// outcome, the hosts are the members' again afterwards.
	defer n.syncPeerHosts()
	timeout := n.commitTimeout()
	done := make(chan error, 1)
	go func() { done <- future.Error() }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		return nil, fmt.Errorf("the configuration change did not commit within %s (controllerCommitTimeoutMillis); it may still: read the members (getControllerMetaData) before trying again", timeout)
	}
	if errors.Is(err, raft.ErrNotLeader) || errors.Is(err, raft.ErrLeadershipLost) || errors.Is(err, raft.ErrRaftShutdown) {
		return nil, fmt.Errorf("%w: %w", errNotServing, err)
	}
	if err != nil {
		return nil, fmt.Errorf("configuration change: %w", err)
	}
	n.log.WithFields(logrus.Fields{"before": peersForm(n.peersOf(current)), "after": peersForm(n.peersOf(after)),
		"index": future.Index()}).Info("controller members changed online")
	n.refreshMembers()
	return n.votersOf(after, future.Index()), nil
}

// votersOf is 5022's and 5023's answer.
func (n *Node) votersOf(c raft.Configuration, index uint64) *wire.ControllerPeers {
	out := &wire.ControllerPeers{Voters: []wire.ControllerPeer{}, Index: index}
	for _, p := range n.peersOf(c) {
		out.Voters = append(out.Voters, wire.ControllerPeer{ID: p.ID, Addr: p.Addr, RaftAddr: p.RaftAddr})
	}
	return out
}

func (n *Node) addControllerPeer(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.AddControllerPeerRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return headerError(req, err)
	}
	res, err := n.addPeer(h.Peer)
	return n.peersAnswer(req, res, err)
}

func (n *Node) removeControllerPeer(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.RemoveControllerPeerRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return headerError(req, err)
	}
	res, err := n.removePeer(h.ID)
	return n.peersAnswer(req, res, err)
}

// peersAnswer is 5022's or 5023's response: the voters, CONTROLLER_NOT_LEADER
// naming the leader, or code 1 with why.
func (n *Node) peersAnswer(req *remoting.Command, res *wire.ControllerPeers, err error) *remoting.Command {
	switch {
	case errors.Is(err, errNotServing):
		return n.notLeader(req)
	case errors.Is(err, errPeerChange):
		return n.refuse(req, refusedMembership, err)
	case err != nil:
		n.log.WithError(err).WithField("code", req.Code).Warn("controller membership change failed")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = res.Encode()
	return resp
}
