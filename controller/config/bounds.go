package config

import (
	"fmt"
	"strings"
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
	"controllerRaftHeartbeatTimeoutMillis":     {50, 60_000},
	"controllerRaftElectionTimeoutMillis":      {50, 60_000},
	"controllerCommitTimeoutMillis":            {100, 600_000},
	"controllerSnapshotThreshold":              {1, 1 << 30},
	"controllerSnapshotIntervalMillis":         {100, 86_400_000},
	"controllerTrailingLogs":                   {0, 1 << 30},
	"controllerMaxHeartbeatEntries":            {1, 10_000_000},
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
	if err := c.validateAccess(); err != nil {
		return err
	}
	_, err := c.Self()
	return err
}
