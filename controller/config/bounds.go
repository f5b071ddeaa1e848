package config

import (
	"fmt"
	"os"
	"strings"
)

// The defaults of the state's bounds (controller/node/bounds.go refuses a
// request past them before anything is appended to the log). 4096 sets is
// ten times the largest deployments we know of (hundreds of sets) and keeps
// the worst case, every name and address at its REGISTER_BROKER bound, near
// 4096 x 64 x 1 KiB of state; a set runs a master and one to three slaves,
// and 64 ids leave room for members that took a new id (a lost disk, a
// rebuilt container) and were never cleaned (CLEAN_BROKER_DATA).
const (
	DefaultMaxBrokerSets      = 4096
	DefaultMaxBrokerIDsPerSet = 64
)

// bounds keep every numeric setting in a range the controller works in; the
// README's table repeats them.
var bounds = map[string]struct{ min, max int64 }{
	"controllerThreadPoolNums":                 {1, 1024},
	"controllerRequestThreadPoolQueueCapacity": {1, 1_000_000},
	"scanNotActiveBrokerInterval":              {100, 86_400_000},
	"scanInactiveMasterInterval":               {100, 86_400_000},
	"electMasterMaxRetryCount":                 {1, 100},
	"controllerRaftPortOffset":                 {-65535, 65535},
	"controllerLeaderGraceMillis":              {0, 600_000},
	"controllerRaftHeartbeatTimeoutMillis":     {50, 60_000},
	"controllerRaftElectionTimeoutMillis":      {50, 60_000},
	"controllerRaftLeaderLeaseTimeoutMillis":   {0, 60_000},
	"controllerCommitTimeoutMillis":            {100, 600_000},
	"controllerSnapshotThreshold":              {1, 1 << 30},
	"controllerSnapshotIntervalMillis":         {100, 86_400_000},
	"controllerTrailingLogs":                   {0, 1 << 30},
	"controllerMaxHeartbeatEntries":            {1, 10_000_000},
	"controllerMaxBrokerSets":                  {1, 1_000_000},
	"controllerMaxBrokerIdsPerSet":             {1, 100_000},
	"httpListenPort":                           {-2, 65535},
	"tlsHandshakeMaxConcurrent":                {1, 1_000_000},
	"tlsHandshakeTimeoutMillis":                {100, 600_000},
}

// Validate checks bounds, the engine type and the peers.
func (c *Config) Validate() error {
	for _, s := range settings {
		b, ok := bounds[s.Key]
		if !ok {
			continue
		}
		text, _ := c.Value(s.Key)
		var n int64
		fmt.Sscan(text, &n)
		if n < b.min || n > b.max {
			return fmt.Errorf("%s=%d out of range [%d, %d]", s.Key, n, b.min, b.max)
		}
	}
	if !strings.EqualFold(c.ControllerType, "DLedger") && !strings.EqualFold(c.ControllerType, "jRaft") {
		return fmt.Errorf("controllerType=%q: want DLedger or jRaft (both run the hashicorp/raft engine)", c.ControllerType)
	}
	if c.ControllerStorePath == "" {
		return fmt.Errorf("controllerStorePath is empty")
	}
	if err := c.validateRaftTLS(); err != nil {
		return err
	}
	if err := c.validateRaftTimeouts(); err != nil {
		return err
	}
	if err := c.validateAccess(); err != nil {
		return err
	}
	_, err := c.Self()
	return err
}

// RaftTLS says whether mutual TLS is on for Raft (the three
// controllerRaftTls* keys set).
func (c *Config) RaftTLS() bool { return c.RaftTLSCertPath != "" }

// validateRaftTLS wants the three controllerRaftTls* keys all set or none,
// and each file readable: a typo must stop the start, not leave Raft plain
// or the group unable to talk.
func (c *Config) validateRaftTLS() error {
	keys := []struct{ key, path string }{
		{"controllerRaftTlsCertPath", c.RaftTLSCertPath},
		{"controllerRaftTlsKeyPath", c.RaftTLSKeyPath},
		{"controllerRaftTlsTrustCertPath", c.RaftTLSTrustCertPath},
	}
	var set, unset []string
	for _, k := range keys {
		if k.path == "" {
			unset = append(unset, k.key)
		} else {
			set = append(set, k.key)
		}
	}
	if len(set) == 0 {
		return nil
	}
	if len(unset) > 0 {
		return fmt.Errorf("%s set but %s empty: Raft mutual TLS needs all three keys or none",
			strings.Join(set, ", "), strings.Join(unset, ", "))
	}
	for _, k := range keys {
		if _, err := os.ReadFile(k.path); err != nil {
			return fmt.Errorf("%s: %w", k.key, err)
		}
	}
	return nil
}

// DefaultLeaderGraceMillis is controllerLeaderGraceMillis: a broker's
// heartbeat period (brokerHeartbeatInterval, 1000 ms in Java's and our
// broker) plus 500 ms for its heartbeat to arrive. A master alive while the
// lead changed is heard again within it; one that died is elected for right
// after it, not a heartbeat timeout (10 s) later.
const DefaultLeaderGraceMillis = 1500
