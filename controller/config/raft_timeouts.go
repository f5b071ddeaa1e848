package config

import (
	"fmt"
	"time"
)

// RaftLeaderLease is hashicorp/raft's LeaderLeaseTimeout:
// controllerRaftLeaderLeaseTimeoutMillis, or when it is 0 (the default)
// the heartbeat timeout, the longest lease hashicorp/raft accepts. A leader
// steps down when it has not heard a quorum within its lease; a lease as
// long as the heartbeat timeout lets it ride out a stall of its own process
// (or of the followers) nearly that long, where half of it (the lease up to
// 0.9.x) deposed a healthy leader on a busy host (docs/controller.md,
// "Timeouts on busy hosts").
func (c *Config) RaftLeaderLease() time.Duration {
	if c.RaftLeaderLeaseMillis == 0 {
		return time.Duration(c.RaftHeartbeatTimeoutMillis) * time.Millisecond
	}
	return time.Duration(c.RaftLeaderLeaseMillis) * time.Millisecond
}

// raftLeaseMinMillis is the shortest lease that may be set, the heartbeat
// timeout's own least value.
const raftLeaseMinMillis = 50

// validateRaftTimeouts refuses the combinations hashicorp/raft refuses, by
// the keys' names: a lease longer than the heartbeat timeout (or shorter
// than 50 ms), or an election timeout shorter than the heartbeat timeout.
func (c *Config) validateRaftTimeouts() error {
	if c.RaftLeaderLeaseMillis != 0 && c.RaftLeaderLeaseMillis < raftLeaseMinMillis {
		return fmt.Errorf("controllerRaftLeaderLeaseTimeoutMillis=%d: want 0 (the heartbeat timeout) or at least %d", c.RaftLeaderLeaseMillis, raftLeaseMinMillis)
	}
	if c.RaftLeaderLeaseMillis > c.RaftHeartbeatTimeoutMillis {
		return fmt.Errorf("controllerRaftLeaderLeaseTimeoutMillis=%d is longer than controllerRaftHeartbeatTimeoutMillis=%d: "+
			"the lease can be at most the heartbeat timeout (0: the heartbeat timeout)", c.RaftLeaderLeaseMillis, c.RaftHeartbeatTimeoutMillis)
	}
	if c.RaftElectionTimeoutMillis < c.RaftHeartbeatTimeoutMillis {
		return fmt.Errorf("controllerRaftElectionTimeoutMillis=%d is shorter than controllerRaftHeartbeatTimeoutMillis=%d: "+
			"the election timeout must be at least the heartbeat timeout", c.RaftElectionTimeoutMillis, c.RaftHeartbeatTimeoutMillis)
	}
	return nil
}
