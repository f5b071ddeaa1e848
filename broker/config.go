// Package broker is a route-only RocketMQ broker: it keeps a topic table,
// registers it with the NameServers like a Java broker, and answers the admin
// requests for topics. It has no message store: producers and consumers
// cannot exchange messages through it. It exists to try a cluster on one
// machine, to load-test NameServers and to let the route tools be tested.
package broker

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/agent"
	"github.com/gonamesrv/gonamesrv/broker/replicas"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
)

// Config holds the broker settings, named after the Java BrokerConfig,
// NettyServerConfig and MessageStoreConfig keys of broker.conf.
type Config struct {
	BrokerClusterName string
	BrokerName        string
	BrokerID          int64
	NamesrvAddr       string // ';'-separated NameServer addresses
	ListenPort        int    // 0 picks a free port
	// BindAddress is the address the listener binds (Java 5's
	// NettyServerConfig bindAddress, also read from broker.conf there):
	// 0.0.0.0 by default, every interface; BrokerIP1 is what is announced.
	BindAddress      string
	BrokerIP1        string // address announced to clients
	BrokerIP2        string // address announced for HA
	HaListenPort     int    // announced only: a route-only broker has no HA service
	StorePathRootDir string // topics.json lives in <root>/config

	RegisterNameServerPeriod time.Duration // clamped to 10..60 s unless AllowShortRegisterPeriod
	RegisterBrokerTimeout    time.Duration // registerBrokerTimeoutMills
	ForceRegister            bool
	CompressedRegister       bool
	EnableSplitRegistration  bool
	SplitRegistrationSize    int
	BrokerPermission         int32
	EnableSlaveActingMaster  bool
	BrokerHeartbeatInterval  time.Duration
	BrokerNotActiveTimeout   time.Duration // brokerNotActiveTimeoutMillis
	CompatibleWithOldNameSrv bool

	AutoCreateTopicEnable bool
	DefaultTopicQueueNums int32
	ClusterTopicEnable    bool
	BrokerTopicEnable     bool
	TraceTopicEnable      bool
	MsgTraceTopicName     string
	ReviveQueueNum        int32

	// SlaveSyncPeriod is how often a slave copies its master's topic table
	// (Go-only key slaveSyncPeriod, milliseconds).
	SlaveSyncPeriod time.Duration
	// AllowShortRegisterPeriod lifts Java's 10 s lower bound on the
	// registration period. For tests and development only (Go-only key
	// allowShortRegisterPeriod).
	AllowShortRegisterPeriod bool

	// EnableControllerMode hands the broker's role and id to a RocketMQ 5
	// controller (broker/replicas); brokerId is then ignored.
	EnableControllerMode bool
	// Controller holds the controller-mode keys (broker/replicas.Config);
	// its BrokerHeartbeatInterval is BrokerHeartbeatInterval above.
	Controller replicas.Config

	// Security signs the NameServer requests and turns TLS on (security.go).
	Security
	// Access guards the broker's own port: ACL and TLS (access_config.go).
	Access
}

// DefaultConfig returns the Java defaults (BrokerStartup's listen port 10911,
// store under ~/store) for a master of broker-a in DefaultCluster.
func DefaultConfig() Config {
	home, _ := os.UserHomeDir()
	agentDefaults := agent.DefaultConfig(agent.Identity{}, nil)
	return Config{
		BrokerClusterName: "DefaultCluster",
		BrokerName:        defaultBrokerName(),
		NamesrvAddr:       os.Getenv("NAMESRV_ADDR"),
		ListenPort:        10911,
		BindAddress:       "0.0.0.0",
		BrokerIP1:         "127.0.0.1",
		HaListenPort:      10912,
		StorePathRootDir:  filepath.Join(home, "store"),
		// The registration settings default to the agent's Java defaults.
		RegisterNameServerPeriod: agentDefaults.RegisterPeriod,
		RegisterBrokerTimeout:    agentDefaults.RegisterTimeout,
		ForceRegister:            agentDefaults.ForceRegister,
		SplitRegistrationSize:    agentDefaults.SplitRegistrationSize,
		BrokerPermission:         agentDefaults.BrokerPermission,
		BrokerHeartbeatInterval:  agentDefaults.HeartbeatInterval,
		BrokerNotActiveTimeout:   agentDefaults.HeartbeatTimeout,
		CompatibleWithOldNameSrv: agentDefaults.CompatibleWithOldNameSrv,
		AutoCreateTopicEnable:    true,
		DefaultTopicQueueNums:    8,
		ClusterTopicEnable:       true,
		BrokerTopicEnable:        true,
		MsgTraceTopicName:        topicconfig.TraceTopic,
		ReviveQueueNum:           8,
		SlaveSyncPeriod:          60 * time.Second,
		Controller:               controllerDefaults(),
		Access:                   defaultAccess(),
	}
}

// defaultBrokerName is the host name, as the Java broker defaults it.
func defaultBrokerName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		return "DEFAULT_BROKER"
	}
	return host
}

// NameServers splits NamesrvAddr on ';'.
func (c *Config) NameServers() []string {
	var addrs []string
	for _, addr := range strings.Split(c.NamesrvAddr, ";") {
		if addr = strings.TrimSpace(addr); addr != "" {
			addrs = append(addrs, addr)
		}
	}
	return addrs
}

// Validate checks the values the broker cannot run without.
func (c *Config) Validate() error {
	switch {
	case c.BrokerClusterName == "":
		return fmt.Errorf("%w: brokerClusterName is empty", ErrBrokerConfig)
	case c.BrokerName == "":
		return fmt.Errorf("%w: brokerName is empty", ErrBrokerConfig)
	case c.BrokerID < 0:
		return fmt.Errorf("%w: brokerId %d is negative", ErrBrokerConfig, c.BrokerID)
	case c.ListenPort < 0 || c.ListenPort > 65535:
		return fmt.Errorf("%w: listenPort %d out of range", ErrBrokerConfig, c.ListenPort)
	case !validBindAddress(c.BindAddress):
		return fmt.Errorf("%w: bindAddress %q is not an IP address or host name (0.0.0.0 binds every interface)", ErrBrokerConfig, c.BindAddress)
	case c.RegisterNameServerPeriod <= 0:
		return fmt.Errorf("%w: registerNameServerPeriod must be positive", ErrBrokerConfig)
	}
	if err := c.Access.validate(); err != nil {
		return err
	}
	if c.EnableControllerMode {
		rc := c.controllerConfig()
		return rc.Validate()
	}
	return nil
}

// validBindAddress accepts an IP address (v4 or v6, without brackets or
// port) or a host name, as Java's InetSocketAddress does.
func validBindAddress(addr string) bool {
	if net.ParseIP(addr) != nil {
		return true
	}
	if addr == "" || len(addr) > 253 || strings.ContainsAny(addr, ":[]/ ") {
		return false
	}
	return true
}

// registerPeriod applies Java's 10..60 s clamp unless lifted for tests.
func (c *Config) registerPeriod() time.Duration {
	if c.AllowShortRegisterPeriod {
		return c.RegisterNameServerPeriod
	}
	return agent.ClampRegisterPeriod(c.RegisterNameServerPeriod)
}

// systemTopicOptions maps the config onto the system topic settings.
func (c *Config) systemTopicOptions() topicconfig.SystemTopicOptions {
	return topicconfig.SystemTopicOptions{
		BrokerClusterName:     c.BrokerClusterName,
		BrokerName:            c.BrokerName,
		AutoCreateTopicEnable: c.AutoCreateTopicEnable,
		DefaultTopicQueueNums: c.DefaultTopicQueueNums,
		ClusterTopicEnable:    c.ClusterTopicEnable,
		BrokerTopicEnable:     c.BrokerTopicEnable,
		TraceTopicEnable:      c.TraceTopicEnable,
		MsgTraceTopicName:     c.MsgTraceTopicName,
		ReviveQueueNum:        c.ReviveQueueNum,
	}
}

// agentConfig maps the config onto the registration agent's settings for a
// broker announced at brokerAddr.
func (c *Config) agentConfig(brokerAddr string) agent.Config {
	ip2 := c.BrokerIP2
	if ip2 == "" {
		ip2 = c.BrokerIP1
	}
	cfg := agent.DefaultConfig(agent.Identity{
		ClusterName:        c.BrokerClusterName,
		BrokerName:         c.BrokerName,
		BrokerID:           c.BrokerID,
		BrokerAddr:         brokerAddr,
		HAServerAddr:       fmt.Sprintf("%s:%d", ip2, c.HaListenPort),
		EnableActingMaster: c.EnableSlaveActingMaster,
	}, c.NameServers())
	cfg.RegisterPeriod = c.registerPeriod()
	cfg.FirstRegisterDelay = min(cfg.FirstRegisterDelay, cfg.RegisterPeriod)
	cfg.RegisterTimeout = c.RegisterBrokerTimeout
	cfg.ForceRegister = c.ForceRegister
	cfg.CompressedRegister = c.CompressedRegister
	cfg.EnableSplitRegistration = c.EnableSplitRegistration
	cfg.SplitRegistrationSize = c.SplitRegistrationSize
	cfg.BrokerPermission = c.BrokerPermission
	cfg.HeartbeatInterval = c.BrokerHeartbeatInterval
	cfg.HeartbeatTimeout = c.BrokerNotActiveTimeout
	cfg.CompatibleWithOldNameSrv = c.CompatibleWithOldNameSrv
	return cfg
}

// controllerConfig is the controller-mode settings with the shared heartbeat
// interval and Java's default identity path under storePathRootDir.
func (c *Config) controllerConfig() replicas.Config {
	rc := c.Controller
	rc.BrokerHeartbeatInterval = c.BrokerHeartbeatInterval
	if rc.StorePathBrokerIdentity == "" {
		rc.StorePathBrokerIdentity = replicas.IdentityPath(c.StorePathRootDir)
	}
	rc.Credentials = aclsign.Credentials{AccessKey: c.AccessKey, SecretKey: c.SecretKey}
	return rc
}

// controllerDefaults are Java's controller-mode defaults; the identity path
// is left empty so that controllerConfig puts it under storePathRootDir,
// wherever broker.conf moves that.
func controllerDefaults() replicas.Config {
	rc := replicas.DefaultConfig("")
	rc.StorePathBrokerIdentity = ""
	rc.BrokerHeartbeatInterval = 0 // the broker's own key fills it
	return rc
}
