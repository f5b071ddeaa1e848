// Package node runs one RocketMQ 5 controller node: the pure state of
// package controller under hashicorp/raft (raftfsm), the node's local
// heartbeat table, the request handlers of codes 1001-1013, 904 and our 5020 in one
// dispatch table on a remoting.Server, and the dead-master triggers
// (connection close, heartbeat expiry, the leader's inactive-master scan)
// with NOTIFY_BROKER_ROLE_CHANGED to the live members after each election.
package node

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/raftfsm"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Node is one controller group member.
type Node struct {
	log *logrus.Entry
	cfg atomic.Pointer[config.Config]
	// cfgUpdate serializes UPDATE_CONTROLLER_CONFIG: read, change, write
	// the file and publish, one at a time.
	cfgUpdate sync.Mutex
	// self, listed and group are read once at start: an
	// UPDATE_CONTROLLER_CONFIG of the peer keys applies at the next start.
	// listed is controllerDLegerPeers; the members in force are Raft's
	// configuration (peerList, membership.go).
	self   config.Peer
	listed []config.Peer
	group  string
	// members is the group as last read from Raft's configuration
	// (membership.go); peerList reads it.
	members atomic.Pointer[memberView]
	// membership serializes the online changes (5022, 5023).
	membership sync.Mutex
	// removed is set once this node finds itself out of the group's
	// configuration: its Raft is stopped for good (membership.go).
	removed atomic.Bool
	// wasMember is set once a configuration listed this node.
	wasMember atomic.Bool
	// removalProbe is refreshMembers' (membership_probe.go).
	removalProbe
	// lastLeader is the last leader refreshMembers saw, which a removed
	// node names (its Raft, stopped, knows none).
	lastLeader atomic.Pointer[config.Peer]

	fsm   *raftfsm.FSM
	raft  *raft.Raft
	trans *raft.NetworkTransport
	// stream is trans's raftnet layer: its peer hosts follow the members.
	stream *raftnet.Stream
	store  *raftboltdb.BoltStore
	// guard is the log store raft writes through (logGuard).
	guard *logGuard
	// storeDir holds raft.db and snapshots/ (StoreDir).
	storeDir string
	// closeLog ends the pipe that carries hashicorp's log lines into logrus.
	closeLog func()

	// serving is true once this node leads and its Barrier committed: only
	// then are state requests answered (Java answers 2007 until its empty
	// entry commits). servingTerm is the term that barrier ran in: a node
	// that lost and regained the lead before watchLeadership saw it does not
	// serve the new term until its own barrier.
	serving     atomic.Bool
	servingTerm atomic.Uint64
	// draining is set once the node shuts down: it never serves again.
	draining atomic.Bool
	// down is the error that stopped the node (fail); failed is closed then.
	down   atomic.Pointer[error]
	failed chan struct{}
	// writeMu makes validate -> commit -> answer one step per request, as
	// Java's single EventScheduler thread: the next request validates
	// against the previous one's effects.
	writeMu sync.Mutex
	// transferState lets one leadership transfer run at a time (transfer.go).
	transferState transferState
	// httpACL is the broker-facing port's checker, which guards the side
	// port's write endpoints too (http_admin.go); nil checks none.
	httpACL atomic.Pointer[acl.Checker]

	live *liveTable
	// asker asks the other nodes what they hold of a broker before the
	// leader elects for silence (agree.go); ledSince is when this node
	// last began serving as leader (nowMillis), the start of its grace.
	asker    *livenessAsker
	ledSince atomic.Int64
	// leaderGrace is controllerLeaderGraceMillis (graceLeft).
	leaderGrace int64
	elector     *elector
	notifier    *notifier
	// namesrvs tells namesrvAddr's NameServers of elections; nil without.
	namesrvs *namesrvNotifier
	// security signs and encrypts the node's own requests (client.go);
	// each client copies it.
	security remoting.ClientConfig
	metrics  *Metrics
	// heartbeatFull paces the warning of heartbeats dropped past the bound.
	heartbeatFull ratelog.Limiter
	// refusals paces the warnings of requests refused past the bounds
	// (bounds.go) and of refused config updates.
	refusals ratelog.Set

	stop chan struct{}
	wg   sync.WaitGroup
}

// New opens the store under controllerStorePath, starts Raft (bootstrapping
// the group from controllerDLegerPeers the first time) and the node's
// background loops. Register its handlers on a remoting server next.
func New(cfg *config.Config, log *logrus.Entry) (*Node, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("controller config: %w", err)
	}
	peers, _ := cfg.Peers()
	self, _ := cfg.Self()
	security, err := clientSecurity(cfg)
	if err != nil {
		return nil, fmt.Errorf("controller config: %w", err)
	}
	n := &Node{security: security, log: log.WithFields(logrus.Fields{"component": "controller", "selfId": self.ID}),
		self: self, listed: peers, group: cfg.Group(), fsm: raftfsm.New(), leaderGrace: cfg.LeaderGraceMillis,
		stop: make(chan struct{}), failed: make(chan struct{})}
	n.members.Store(newMemberView(peers, cfg.JRaftPeers()))
	n.cfg.Store(cfg.Clone())
	n.storeDir = StoreDir(cfg)
	n.metrics = newMetrics(n)
	n.live = newLiveTable(cfg.MaxHeartbeatEntries)
	n.notifier = newNotifier(n)
	n.namesrvs = newNamesrvNotifier(n, cfg.NamesrvAddr)
	n.elector = newElector(n)
	n.asker = newLivenessAsker()
	engine := "hashicorp/raft"
	if !strings.EqualFold(cfg.ControllerType, "DLedger") {
		engine += " (controllerType " + cfg.ControllerType + " is served by the same engine)"
	} else {
		engine += " (controllerType DLedger is served by this engine)"
	}
	n.log.WithFields(logrus.Fields{"engine": engine, "group": cfg.Group(), "peers": cfg.ControllerDLegerPeers,
		"raftAddr": self.RaftAddr, "addr": self.Addr}).Info("starting controller node")
	if keys := cfg.IgnoredStoredKeys(); len(keys) > 0 {
		n.log.WithFields(logrus.Fields{"configStorePath": cfg.StorePath(), "keys": keys}).
			Warn("configStorePath names keys set over the wire that are not changeable online (a file of an older version): ignored, the -c file decides them")
	}
	if owner := cfg.IgnoredStoreOwner(); owner != "" {
		n.log.WithFields(logrus.Fields{"configStorePath": cfg.StorePath(), "writtenBy": owner, "self": cfg.Group() + "/" + cfg.SelfID()}).
			Warn("configStorePath was written by another node: not read back (each node keeps its own file; leave configStorePath unset)")
	}
	if keys := cfg.WireKeys(); len(keys) > 0 {
		n.log.WithFields(logrus.Fields{"configStorePath": cfg.StorePath(), "keys": keys}).
			Info("settings of earlier UPDATE_CONTROLLER_CONFIG read back from configStorePath")
	}
	n.registerUp()
	n.fsm.OnFailure(n.fail)
	if err := n.startRaft(cfg); err != nil {
		return nil, err
	}
	n.wg.Add(1)
	go n.watchFailure()
	n.wg.Add(6)
	go n.watchLeaderSilence(time.Duration(cfg.RaftHeartbeatTimeoutMillis) * time.Millisecond)
	go n.watchMembers()
	go n.watchLeadership()
	go n.expireHeartbeats()
	go n.every(time.Duration(cfg.ScanInactiveMasterInterval)*time.Millisecond, n.scanInactiveMasters)
	go n.elector.run()
	n.notifier.start()
	if n.namesrvs != nil {
		n.namesrvs.start()
	}
	return n, nil
}

// Config is the current configuration (UPDATE_CONTROLLER_CONFIG replaces it).
func (n *Node) Config() *config.Config { return n.cfg.Load() }

// Self is this node's peer entry.
func (n *Node) Self() config.Peer { return n.self }

// Metrics is the node's Prometheus collectors.
func (n *Node) Metrics() *Metrics { return n.metrics }

// Serving says whether this node leads and answers state requests.
func (n *Node) Serving() bool {
	return n.serving.Load() && !n.draining.Load() && n.down.Load() == nil && n.raft.State() == raft.Leader && n.raft.CurrentTerm() == n.servingTerm.Load()
}

// Leader returns the leader's peer entry, if one is known.
func (n *Node) Leader() (config.Peer, bool) {
	if n.removed.Load() {
		if last := n.lastLeader.Load(); last != nil {
			return *last, true
		}
		return config.Peer{}, false
	}
	_, id := n.raft.LeaderWithID()
	return n.peer(id)
}

// peer is the listed peer whose id is id.
func (n *Node) peer(id raft.ServerID) (config.Peer, bool) {
	for _, p := range n.peerList() {
		if raft.ServerID(p.ID) == id {
			return p, true
		}
	}
	return config.Peer{}, false
}

// watchLeadership turns LeaderCh's signals into serving: on gaining the
// lead a Barrier commits everything of earlier terms before any answer.
func (n *Node) watchLeadership() {
	defer n.wg.Done()
	ch := n.raft.LeaderCh()
	for {
		select {
		case <-n.stop:
			return
		case leader := <-ch:
			n.serving.Store(false)
			n.metrics.leaderChanges.Inc()
			if !leader {
				n.log.Info("lost the controller lead; answering CONTROLLER_NOT_LEADER")
				n.metrics.role.Set(0)
				continue
			}
			started, term := time.Now(), n.raft.CurrentTerm()
			if err := n.raft.Barrier(n.commitTimeout()).Error(); err != nil {
				n.log.WithError(err).Warn("barrier after gaining the lead failed; not serving")
				continue
			}
			if n.raft.State() != raft.Leader || n.raft.CurrentTerm() != term {
				continue
			}
			n.servingTerm.Store(term)
			n.ledSince.Store(nowMillis())
			n.serving.Store(true)
			n.metrics.role.Set(1)
			if n.namesrvs != nil {
				n.namesrvs.leading()
			}
			n.log.WithFields(logrus.Fields{"term": term, "barrierMillis": time.Since(started).Milliseconds()}).
				Info("controller leader: barrier committed, serving")
			// A master that died while no node led (its close seen by this
			// node as a follower, or its heartbeat run out) is elected once
			// the brokers have had a heartbeat period to be heard by this
			// leader (controllerLeaderGraceMillis, agree.go), not at the
			// next scanInactiveMasterInterval.
			n.wg.Add(1)
			go func() { defer n.wg.Done(); n.scanAfterGrace(term) }()
		}
	}
}

func (n *Node) commitTimeout() time.Duration {
	return time.Duration(n.Config().CommitTimeoutMillis) * time.Millisecond
}

// drain stops the node serving as leader for good, first step of a shutdown.
func (n *Node) drain() {
	n.draining.Store(true)
	n.serving.Store(false)
}

// stopRaft stops Raft for good: the transport's dials first, which wait for
// a peer that is away (raftnet.Stream.Dial) and which Raft's shutdown
// would otherwise wait for.
func (n *Node) stopRaft() error {
	if n.stream != nil {
		n.stream.StopDialing()
	}
	return n.raft.Shutdown().Error()
}

// Shutdown stops the loops, Raft, the transport and the store.
func (n *Node) Shutdown(ctx context.Context) error {
	n.drain()
	close(n.stop)
	err := n.stopRaft()
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		err = errors.Join(err, ctx.Err())
	}
	n.notifier.close()
	n.asker.close()
	if n.namesrvs != nil {
		n.namesrvs.close()
	}
	err = errors.Join(err, n.trans.Close(), n.store.Close())
	n.closeLog()
	return err
}
