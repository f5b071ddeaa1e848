// Package replicas is the route-only broker's side of the RocketMQ 5
// controller (Java 5's ReplicasManager, docs/controller.md §2.6): it finds the
// controller leader, gets and keeps a controller-assigned broker id in the
// brokerIdentity files, heartbeats to every controller, asks for an election
// when the set has no master, follows role changes (notices and polling), and,
// as master, reports its in-sync set. The broker registers with the
// NameServers only once the controller has given it a role (fenced start).
package replicas

import (
	"context"
	"crypto/tls"
	"fmt"
	"math"
	"net"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
)

// Config holds the controller-mode keys of broker.conf, Java's names and
// defaults (BrokerConfig, MessageStoreConfig) plus the Go-only
// simulatedOffsetRate.
type Config struct {
	// ControllerAddr is controllerAddr: ';'-separated controller addresses, or
	// one host:port name to resolve when FetchControllerAddrByDNSLookup.
	ControllerAddr                 string
	FetchControllerAddrByDNSLookup bool
	// SyncBrokerMetadataPeriod is how often GET_REPLICA_INFO polls the leader.
	SyncBrokerMetadataPeriod time.Duration
	// CheckSyncStateSetPeriod is how often a master compares its in-sync set.
	CheckSyncStateSetPeriod time.Duration
	// SyncControllerMetadataPeriod is how often the leader is looked up again.
	SyncControllerMetadataPeriod time.Duration
	// ControllerHeartBeatTimeout is announced in every heartbeat: the
	// controller takes the broker for dead after it.
	ControllerHeartBeatTimeout time.Duration
	// BrokerHeartbeatInterval is how often BROKER_HEARTBEAT goes to every
	// controller (and, from a slave, to its master).
	BrokerHeartbeatInterval time.Duration
	// BrokerElectionPriority: lower is preferred when offsets tie.
	BrokerElectionPriority int32
	// StorePathBrokerIdentity is the metadata file; its temp file adds "-temp".
	StorePathBrokerIdentity string
	// HaMaxTimeSlaveNotCatchup: a slave whose last heartbeat to the master is
	// older leaves the master's in-sync set.
	HaMaxTimeSlaveNotCatchup time.Duration
	// HaMaxGapNotInSync: a slave further behind the master's offset, in
	// bytes, leaves the in-sync set.
	HaMaxGapNotInSync int64
	// SimulatedOffsetRate is the bytes per second the broker's simulated
	// commit log grows by (there is no store); the offset is reported as
	// maxOffset, so elections by offset can be tried.
	SimulatedOffsetRate int64
	// Credentials sign every request to the controllers (and a slave's
	// heartbeats to its master, which ignores them): the broker's
	// accessKey and secretKey, which a controller with aclEnable=true
	// checks. Empty: unsigned.
	Credentials aclsign.Credentials
	// TLS, when set, is the client TLS of every connection to the
	// controllers and of a slave's heartbeats to its master: the broker's
	// useTLS, as its NameServer calls (Java's brokers use one client TLS
	// setting for all). Nil: plain TCP.
	TLS *tls.Config
}

// Fixed limits of the flow (Java's constants), named in broker/README.md.
const (
	// firstTaskDelay is the delay before the first GET_REPLICA_INFO, the first
	// in-sync check and the first leader refresh (3 s in Java), shortened to
	// the period when the period is shorter.
	firstTaskDelay = 3 * time.Second
	// retryInterval separates two tries of the whole start sequence.
	retryInterval = 5 * time.Second
	// leaderTries and registerTries bound one try of the start sequence.
	leaderTries   = 3
	registerTries = 5
	// callTimeout bounds one request to a controller or a master.
	callTimeout = 3 * time.Second
)

// DefaultConfig returns Java's defaults; the identity path is
// <storePathRootDir>/brokerIdentity.
func DefaultConfig(storePathRootDir string) Config {
	return Config{
		SyncBrokerMetadataPeriod:     5 * time.Second,
		CheckSyncStateSetPeriod:      5 * time.Second,
		SyncControllerMetadataPeriod: 10 * time.Second,
		ControllerHeartBeatTimeout:   10 * time.Second,
		BrokerHeartbeatInterval:      time.Second,
		BrokerElectionPriority:       math.MaxInt32,
		StorePathBrokerIdentity:      IdentityPath(storePathRootDir),
		HaMaxTimeSlaveNotCatchup:     15 * time.Second,
		HaMaxGapNotInSync:            256 << 20,
		SimulatedOffsetRate:          1 << 20,
	}
}

// IdentityPath is Java's default storePathBrokerIdentity.
func IdentityPath(storePathRootDir string) string {
	return strings.TrimRight(storePathRootDir, "/") + "/brokerIdentity"
}

// Validate checks the values the flow cannot run with.
func (c *Config) Validate() error {
	for name, d := range map[string]time.Duration{
		"syncBrokerMetadataPeriod": c.SyncBrokerMetadataPeriod, "checkSyncStateSetPeriod": c.CheckSyncStateSetPeriod,
		"syncControllerMetadataPeriod": c.SyncControllerMetadataPeriod, "controllerHeartBeatTimeoutMills": c.ControllerHeartBeatTimeout,
		"brokerHeartbeatInterval": c.BrokerHeartbeatInterval, "haMaxTimeSlaveNotCatchup": c.HaMaxTimeSlaveNotCatchup,
	} {
		if d <= 0 {
			return fmt.Errorf("%w: %s must be positive", ErrConfig, name)
		}
	}
	switch {
	case strings.TrimSpace(c.ControllerAddr) == "":
		return fmt.Errorf("%w: enableControllerMode needs controllerAddr", ErrConfig)
	case c.StorePathBrokerIdentity == "":
		return fmt.Errorf("%w: storePathBrokerIdentity is empty", ErrConfig)
	case c.SimulatedOffsetRate < 0:
		return fmt.Errorf("%w: simulatedOffsetRate %d is negative", ErrConfig, c.SimulatedOffsetRate)
	}
	return nil
}

// ControllerAddrs returns the controller addresses: controllerAddr split on
// ';', or, with DNS lookup, every address its host name resolves to with its
// port (Java's dnsLookupAddressByDomain).
func (c *Config) ControllerAddrs(ctx context.Context) ([]string, error) {
	if !c.FetchControllerAddrByDNSLookup {
		var addrs []string
		for _, a := range strings.Split(c.ControllerAddr, ";") {
			if a = strings.TrimSpace(a); a != "" {
				addrs = append(addrs, a)
			}
		}
		return addrs, nil
	}
	host, port, err := net.SplitHostPort(strings.TrimSpace(c.ControllerAddr))
	if err != nil {
		return nil, fmt.Errorf("controllerAddr %q for a DNS lookup: %w", c.ControllerAddr, err)
	}
	ips, err := net.DefaultResolver.LookupHost(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("look up controller %s: %w", host, err)
	}
	addrs := make([]string, 0, len(ips))
	for _, ip := range ips {
		addrs = append(addrs, net.JoinHostPort(ip, port))
	}
	return addrs, nil
}
