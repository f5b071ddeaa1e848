package config

import (
	"strings"
	"testing"
	"time"
)

// TestRaftLeaderLeaseIsTheHeartbeatTimeoutByDefault: the lease follows the
// heartbeat timeout unless set (it used to be half of it, which deposed a
// healthy leader on a busy host, issue 38 item 2).
func TestRaftLeaderLeaseIsTheHeartbeatTimeoutByDefault(t *testing.T) {
	c := Default()
	if got := c.RaftLeaderLease(); got != time.Second {
		t.Fatalf("default lease %s, want the 1 s heartbeat timeout", got)
	}
	c.RaftHeartbeatTimeoutMillis, c.RaftElectionTimeoutMillis = 2500, 2500
	if got := c.RaftLeaderLease(); got != 2500*time.Millisecond {
		t.Fatalf("lease %s with a 2.5 s heartbeat timeout, want 2.5 s", got)
	}
	c.RaftLeaderLeaseMillis = 800
	if got := c.RaftLeaderLease(); got != 800*time.Millisecond {
		t.Fatalf("lease %s with controllerRaftLeaderLeaseTimeoutMillis=800, want 800 ms", got)
	}
}

// TestRaftTimeoutsRefusedByName: what hashicorp/raft would refuse at start
// is refused by Validate naming the keys.
func TestRaftTimeoutsRefusedByName(t *testing.T) {
	c := Default()
	c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-127.0.0.1:9878", "n0"
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	c.RaftLeaderLeaseMillis = 1500
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "controllerRaftLeaderLeaseTimeoutMillis=1500") {
		t.Fatalf("a lease past the heartbeat timeout: %v", err)
	}
	c.RaftLeaderLeaseMillis = 10
	if err := c.validateRaftTimeouts(); err == nil || !strings.Contains(err.Error(), "controllerRaftLeaderLeaseTimeoutMillis=10") {
		t.Fatalf("a 10 ms lease: %v", err)
	}
	c.RaftLeaderLeaseMillis, c.RaftElectionTimeoutMillis = 0, 500
	if err := c.validateRaftTimeouts(); err == nil || !strings.Contains(err.Error(), "controllerRaftElectionTimeoutMillis=500") {
		t.Fatalf("an election timeout under the heartbeat timeout: %v", err)
	}
}
