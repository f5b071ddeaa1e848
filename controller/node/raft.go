package node

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
)

// Raft's own limits, named here as the README does.
const (
	// raftMaxPool is the connections kept to each peer.
	raftMaxPool = 3
	// raftIOTimeout bounds one Raft RPC's socket I/O.
	raftIOTimeout = 10 * time.Second
	// snapshotsRetained is how many snapshot files stay on disk.
	snapshotsRetained = 3
)

// StoreDir is where a node keeps its Raft log (raft.db) and snapshots:
// controllerStorePath/raft-<selfId>, so nodes sharing a path do not collide
// (with the JRaft keys the id is the Raft address, its ':' made '_').
func StoreDir(cfg *config.Config) string { return cfg.NodeStoreDir() }

func (n *Node) startRaft(cfg *config.Config) (err error) {
	dir := StoreDir(cfg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("controller store: %w", err)
	}
	pipe := n.log.WithField("component", "raft").WriterLevel(logrus.InfoLevel)
	n.closeLog = func() { pipe.Close() }
	defer func() {
		if err != nil {
			n.closeLog()
		}
	}()
	logger := hclog.New(&hclog.LoggerOptions{Name: "raft", Output: pipe, Level: hclog.Info, DisableTime: true})
	rc := raft.DefaultConfig()
	rc.LocalID = raft.ServerID(cfg.SelfID())
	rc.Logger = logger
	rc.HeartbeatTimeout = time.Duration(cfg.RaftHeartbeatTimeoutMillis) * time.Millisecond
	rc.ElectionTimeout = time.Duration(cfg.RaftElectionTimeoutMillis) * time.Millisecond
	// The lease as long as the heartbeat timeout by default: a leader whose
	// process (or followers) stalled for half of it stepped down on a busy
	// host (docs/controller.md, "Timeouts on busy hosts").
	rc.LeaderLeaseTimeout = cfg.RaftLeaderLease()
	// At most a millisecond under the heartbeat timeout, so the silence
	// watch (silence.go) may shorten that by a millisecond (hashicorp
	// refuses a lease longer than the heartbeat timeout).
	rc.LeaderLeaseTimeout = min(rc.LeaderLeaseTimeout, rc.HeartbeatTimeout-time.Millisecond)
	// Pre-vote (hashicorp's default, said here because the calm depends on
	// it): a follower that missed heartbeats while it stalled asks before
	// it raises the term, and the others, still hearing the leader, refuse;
	// so a stalled follower never deposes a live leader.
	rc.PreVoteDisabled = false
	rc.CommitTimeout = 5 * time.Millisecond
	rc.SnapshotThreshold = uint64(cfg.SnapshotThreshold)
	rc.SnapshotInterval = time.Duration(cfg.SnapshotIntervalMillis) * time.Millisecond
	rc.TrailingLogs = uint64(cfg.TrailingLogs)
	if err := raft.ValidateConfig(rc); err != nil {
		return fmt.Errorf("controller raft config: %w", err)
	}
	if _, err := checkStore(dir, n.log); err != nil {
		return err
	}
	n.store, err = raftboltdb.NewBoltStore(filepath.Join(dir, "raft.db"))
	if err != nil {
		return fmt.Errorf("controller raft log %s: %w", dir, err)
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(dir, snapshotsRetained, logger)
	if err != nil {
		n.store.Close()
		return fmt.Errorf("controller snapshots %s: %w", dir, err)
	}
	n.trans, err = n.raftTransport(cfg, logger)
	if err != nil {
		n.store.Close()
		return fmt.Errorf("controller raft port %s (peer port + controllerRaftPortOffset): %w", n.self.RaftAddr, err)
	}
	existing, err := raft.HasExistingState(n.store, n.store, snaps)
	if err != nil {
		n.trans.Close()
		n.store.Close()
		return fmt.Errorf("controller store %s: %w", dir, err)
	}
	n.guard = newLogGuard(n.store, n.log, n.metrics.Registry)
	n.raft, err = newRaft(dir, rc, n.fsm, n.guard, n.store, snaps, newRPCGuard(n.trans, n.guard))
	if err != nil {
		n.trans.Close()
		n.store.Close()
		return fmt.Errorf("controller raft: %w", err)
	}
	if existing {
		n.log.WithField("dir", dir).Info("controller store found: state restored from the latest snapshot, later entries replayed")
		n.adoptStoredMembers(cfg)
		return nil
	}
	if cfg.JoinGroup {
		// A node added online must not bootstrap: its own first entry would
		// sit at the index of the group's with other voters in it. It waits,
		// without campaigning (hashicorp's "no known peers"), for the
		// leader's AddVoter to send it a snapshot and the log.
		n.log.WithField("dir", dir).Info("new controller store and controllerJoinGroup=true: not bootstrapping; waiting for the group's leader to add this node (addControllerPeer)")
		return nil
	}
	servers := make([]raft.Server, len(n.listed))
	for i, p := range n.listed {
		servers[i] = raft.Server{Suffrage: raft.Voter, ID: raft.ServerID(p.ID), Address: raft.ServerAddress(p.RaftAddr)}
	}
	if err := n.raft.BootstrapCluster(raft.Configuration{Servers: servers}).Error(); err != nil && err != raft.ErrCantBootstrap {
		n.log.WithError(err).Warn("bootstrap of the controller group")
	}
	n.wasMember.Store(true) // the bootstrap configuration lists this node
	n.log.WithFields(logrus.Fields{"dir": dir, "voters": len(servers)}).Info("new controller store: group bootstrapped from controllerDLegerPeers")
	return nil
}
