// Package agent is the broker's side of the route protocol (protocol.md
// section 7): it registers the broker's topic table with every NameServer on a
// period and after each topic change, detects whether a full registration is
// needed, sends heartbeats in acting-master mode, and unregisters on stop.
package agent

import (
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// Identity is who the broker is, as the REGISTER_BROKER header says it.
type Identity struct {
	ClusterName        string // brokerClusterName
	BrokerName         string // brokerName
	BrokerID           int64  // brokerId: 0 master, > 0 slave
	BrokerAddr         string // brokerIP1:listenPort
	HAServerAddr       string // brokerIP2:haListenPort
	EnableActingMaster bool   // enableSlaveActingMaster
}

// Config holds the registration settings with the Java BrokerConfig names.
type Config struct {
	Identity
	// NameServers is the initial list (namesrvAddr split on ';').
	NameServers []string
	// RegisterPeriod is registerNameServerPeriod, already clamped by the caller
	// (Java clamps to 10..60 s; tests may go lower on purpose).
	RegisterPeriod time.Duration
	// FirstRegisterDelay is the wait before the first periodic round after the
	// start-up registration (10 s in Java).
	FirstRegisterDelay time.Duration
	// RegisterTimeout bounds one REGISTER_BROKER or QUERY_DATA_VERSION and the
	// whole parallel round (registerBrokerTimeoutMills).
	RegisterTimeout time.Duration
	// UnregisterTimeout bounds each UNREGISTER_BROKER on stop (3 s in Java).
	UnregisterTimeout time.Duration
	// ForceRegister registers every period even when no NameServer reports a change.
	ForceRegister bool
	// CompressedRegister sends the compressed body layout (protocol.md 3.8).
	CompressedRegister bool
	// EnableSplitRegistration sends topic tables of SplitRegistrationSize or more
	// topics in chunks, each as its own REGISTER_BROKER.
	EnableSplitRegistration bool
	SplitRegistrationSize   int
	// BrokerPermission is ANDed into each topic's perm when it is not read+write.
	BrokerPermission int32
	// HeartbeatInterval is brokerHeartbeatInterval; heartbeats are sent only
	// when EnableActingMaster is set, as in Java.
	HeartbeatInterval time.Duration
	// HeartbeatTimeout is brokerNotActiveTimeoutMillis, announced as
	// heartbeatTimeoutMillis in acting-master mode.
	HeartbeatTimeout time.Duration
	// CompatibleWithOldNameSrv sends QUERY_DATA_VERSION as the heartbeat instead
	// of BROKER_HEARTBEAT.
	CompatibleWithOldNameSrv bool
}

// DefaultConfig returns the Java BrokerConfig defaults for an identity.
func DefaultConfig(id Identity, nameServers []string) Config {
	return Config{
		Identity:                 id,
		NameServers:              nameServers,
		RegisterPeriod:           30 * time.Second,
		FirstRegisterDelay:       10 * time.Second,
		RegisterTimeout:          24 * time.Second,
		UnregisterTimeout:        3 * time.Second,
		ForceRegister:            true,
		SplitRegistrationSize:    800,
		BrokerPermission:         route.PermRead | route.PermWrite,
		HeartbeatInterval:        time.Second,
		HeartbeatTimeout:         10 * time.Second,
		CompatibleWithOldNameSrv: true,
	}
}

// ClampRegisterPeriod applies Java's bounds to registerNameServerPeriod.
func ClampRegisterPeriod(period time.Duration) time.Duration {
	return min(max(period, 10*time.Second), 60*time.Second)
}
