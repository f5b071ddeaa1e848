// Package config holds the controller's settings under Java's keys
// (ControllerConfig of RocketMQ 5.3.3) plus the Go additions the Raft engine
// needs, read from a Java properties file and `-key value` flags as
// cmd/namesrv reads its own. README.md documents every key.
package config

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
)

// Config is every setting; the `prop` tag is the key, `ext:"true"` marks a
// Go addition. Declaration order is -p's order.
type Config struct {
	RocketmqHome                string `prop:"rocketmqHome"`
	ConfigStorePath             string `prop:"configStorePath"`
	ControllerType              string `prop:"controllerType"`
	ControllerDLegerGroup       string `prop:"controllerDLegerGroup"`
	ControllerDLegerPeers       string `prop:"controllerDLegerPeers"`
	ControllerDLegerSelfID      string `prop:"controllerDLegerSelfId"`
	ControllerStorePath         string `prop:"controllerStorePath"`
	ControllerThreadPoolNums    int    `prop:"controllerThreadPoolNums"`
	ControllerRequestQueueCap   int    `prop:"controllerRequestThreadPoolQueueCapacity"`
	ScanNotActiveBrokerInterval int64  `prop:"scanNotActiveBrokerInterval"`
	ScanInactiveMasterInterval  int64  `prop:"scanInactiveMasterInterval"`
	ElectMasterMaxRetryCount    int    `prop:"electMasterMaxRetryCount"`
	EnableElectUncleanMaster    bool   `prop:"enableElectUncleanMaster"`
	NotifyBrokerRoleChanged     bool   `prop:"notifyBrokerRoleChanged"`
	ProcessReadEvent            bool   `prop:"processReadEvent"`
	ConfigBlackList             string `prop:"configBlackList"`
	BindAddress                 string `prop:"bindAddress" ext:"true"`
	AclEnable                   bool   `prop:"aclEnable" ext:"true"`
	AclFile                     string `prop:"aclFile" ext:"true"`
	AclAnonymousRouteRead       bool   `prop:"aclAnonymousRouteRead" ext:"true"`
	AdminWhiteRemoteAddresses   string `prop:"adminWhiteRemoteAddresses" ext:"true"`
	TLSServerMode               string `prop:"tls.server.mode" ext:"true"`
	TLSServerCertPath           string `prop:"tls.server.certPath" ext:"true"`
	TLSServerKeyPath            string `prop:"tls.server.keyPath" ext:"true"`
	TLSServerTrustCertPath      string `prop:"tls.server.trustCertPath" ext:"true"`
	TLSServerNeedClientAuth     string `prop:"tls.server.need.client.auth" ext:"true"`
	TLSHandshakeMaxConcurrent   int    `prop:"tlsHandshakeMaxConcurrent" ext:"true"`
	TLSHandshakeTimeoutMillis   int64  `prop:"tlsHandshakeTimeoutMillis" ext:"true"`
	InnerClientCredentials      string `prop:"innerClientAuthenticationCredentials" ext:"true"`
	AccessKey                   string `prop:"accessKey" ext:"true"`
	SecretKey                   string `prop:"secretKey" ext:"true"`
	UseTLS                      bool   `prop:"useTLS" ext:"true"`
	TLSClientTrustCertPath      string `prop:"tls.client.trustCertPath" ext:"true"`
	TLSClientCertPath           string `prop:"tls.client.certPath" ext:"true"`
	TLSClientKeyPath            string `prop:"tls.client.keyPath" ext:"true"`
	JRaftGroupID                string `prop:"jRaftGroupId"`
	JRaftServerID               string `prop:"jRaftServerId"`
	JRaftInitConf               string `prop:"jRaftInitConf"`
	JRaftControllerRPCAddr      string `prop:"jRaftControllerRPCAddr"`
	RaftPortOffset              int    `prop:"controllerRaftPortOffset" ext:"true"`
	JoinGroup                   bool   `prop:"controllerJoinGroup" ext:"true"`
	LeaderGraceMillis           int64  `prop:"controllerLeaderGraceMillis" ext:"true"`
	RaftTLSCertPath             string `prop:"controllerRaftTlsCertPath" ext:"true"`
	RaftTLSKeyPath              string `prop:"controllerRaftTlsKeyPath" ext:"true"`
	RaftTLSTrustCertPath        string `prop:"controllerRaftTlsTrustCertPath" ext:"true"`
	RaftHeartbeatTimeoutMillis  int64  `prop:"controllerRaftHeartbeatTimeoutMillis" ext:"true"`
	RaftElectionTimeoutMillis   int64  `prop:"controllerRaftElectionTimeoutMillis" ext:"true"`
	RaftLeaderLeaseMillis       int64  `prop:"controllerRaftLeaderLeaseTimeoutMillis" ext:"true"`
	CommitTimeoutMillis         int64  `prop:"controllerCommitTimeoutMillis" ext:"true"`
	SnapshotThreshold           int64  `prop:"controllerSnapshotThreshold" ext:"true"`
	SnapshotIntervalMillis      int64  `prop:"controllerSnapshotIntervalMillis" ext:"true"`
	TrailingLogs                int64  `prop:"controllerTrailingLogs" ext:"true"`
	MaxHeartbeatEntries         int    `prop:"controllerMaxHeartbeatEntries" ext:"true"`
	MaxBrokerSets               int    `prop:"controllerMaxBrokerSets" ext:"true"`
	MaxBrokerIDsPerSet          int    `prop:"controllerMaxBrokerIdsPerSet" ext:"true"`
	NamesrvAddr                 string `prop:"namesrvAddr" ext:"true"`
	HTTPListenPort              int    `prop:"httpListenPort" ext:"true"`
	LogFormat                   string `prop:"logFormat" ext:"true"`
	LogLevel                    string `prop:"logLevel" ext:"true"`
	// wireKeys are the keys UPDATE_CONTROLLER_CONFIG set (store.go);
	// replaced, never changed in place, so clones may share it.
	wireKeys []string
	// ignoredStoredKeys are the stored file's wire keys not applied at
	// start (IgnoredStoredKeys).
	ignoredStoredKeys []string
	// ignoredStoreOwner is the node another node's stored file named
	// (IgnoredStoreOwner).
	ignoredStoreOwner string
	// storePathDefaulted: configStorePath was unset and is the node's own
	// file (store_path.go).
	storePathDefaulted bool
	// unknownKeys are the -c file's keys no setting has, and configFile
	// that file (unknown_keys.go).
	unknownKeys []javaprops.UnknownKey
	configFile  string
}

// Default is Java's defaults plus ours. controllerStorePath is under the
// user's home, as Java's; configStorePath is unset: the node's own file
// beside its store (store_path.go), where Java's is one file per user.
func Default() *Config {
	home, _ := os.UserHomeDir()
	return &Config{
		RocketmqHome:                os.Getenv("ROCKETMQ_HOME"),
		ControllerType:              "DLedger",
		ControllerStorePath:         filepath.Join(home, "DLedgerController"),
		ControllerThreadPoolNums:    16,
		ControllerRequestQueueCap:   50000,
		ScanNotActiveBrokerInterval: 5000,
		ScanInactiveMasterInterval:  5000,
		ElectMasterMaxRetryCount:    3,
		NotifyBrokerRoleChanged:     true,
		ConfigBlackList:             "configBlackList;configStorePath",
		BindAddress:                 "0.0.0.0",
		AclAnonymousRouteRead:       true,
		TLSServerMode:               portguard.TLSModeDisabled,
		TLSServerNeedClientAuth:     portguard.ClientAuthNone,
		TLSHandshakeMaxConcurrent:   256,
		TLSHandshakeTimeoutMillis:   10_000,
		JRaftGroupID:                "jRaft-Controller",
		JRaftServerID:               "localhost:9880",
		JRaftInitConf:               "localhost:9880,localhost:9881,localhost:9882",
		JRaftControllerRPCAddr:      "localhost:9770,localhost:9771,localhost:9772",
		RaftPortOffset:              1000,
		LeaderGraceMillis:           DefaultLeaderGraceMillis,
		RaftHeartbeatTimeoutMillis:  1000,
		RaftElectionTimeoutMillis:   1000,
		CommitTimeoutMillis:         5000,
		SnapshotThreshold:           8192,
		SnapshotIntervalMillis:      120_000,
		TrailingLogs:                10240,
		MaxHeartbeatEntries:         100_000,
		MaxBrokerSets:               DefaultMaxBrokerSets,
		MaxBrokerIDsPerSet:          DefaultMaxBrokerIDsPerSet,
		HTTPListenPort:              httpPortUnset,
		LogFormat:                   "text",
		LogLevel:                    "info",
	}
}

// httpPortUnset means "the self peer's port + HTTPPortOffset".
const httpPortUnset = -2

// HTTPPortOffset places the HTTP side port past the Raft port by default:
// 11878 for a peer listed on 9878 (Raft on 10878).
const HTTPPortOffset = 2000

// fields is every Config field with a `prop` tag, in declaration order.
var fields = javaprops.NewFields[Config](ErrUnknownKey, nil)

// settings lists them, for the loops over every key.
var settings = fields.List()

// Keys returns every key in declaration order.
func Keys() []string { return fields.Keys() }

// IsExtension says whether key is a Go addition rather than a Java key.
func IsExtension(key string) bool { return fields.IsExtension(key) }

// ErrUnknownKey is wrapped by Set for a key no setting has.
var ErrUnknownKey = errors.New("unknown controller setting")

// Set converts value with Java's rules (javaprops.Fields.Set: trimmed;
// booleans true only for "true" in any case; numbers decimal within the
// Java type). On error c is unchanged.
func (c *Config) Set(key, value string) error { return fields.Set(c, key, value) }

// Value returns a setting as text and whether the key exists.
func (c *Config) Value(key string) (string, bool) { return fields.Value(c, key) }

// Values returns every setting as key -> text.
func (c *Config) Values() map[string]string { return fields.Values(c) }

// Clone returns a copy.
func (c *Config) Clone() *Config { d := *c; return &d }

// BlackList is the keys UPDATE_CONTROLLER_CONFIG refuses: configBlackList's
// entries plus rocketmqHome, always (Java adds it).
func (c *Config) BlackList() []string {
	list := []string{"rocketmqHome"}
	for _, k := range strings.Split(c.ConfigBlackList, ";") {
		if k = strings.TrimSpace(k); k != "" && !slices.Contains(list, k) {
			list = append(list, k)
		}
	}
	return list
}

// Peer is one controller node of controllerDLegerPeers.
type Peer struct {
	// ID is the DLedger id ("n0").
	ID string
	// Addr is the RocketMQ port brokers and mqadmin use ("127.0.0.1:9878").
	Addr string
	// RaftAddr is Addr's host with the port + controllerRaftPortOffset.
	RaftAddr string
}

// JRaftPeers says the peers come from Java's JRaft keys: controllerType
// jRaft and no controllerDLegerPeers, so that a Java JRaft controller.conf
// runs unchanged.
func (c *Config) JRaftPeers() bool {
	return strings.EqualFold(c.ControllerType, "jRaft") && strings.TrimSpace(c.ControllerDLegerPeers) == ""
}

// Group is the group name 1005 answers: controllerDLegerGroup, or
// jRaftGroupId with the JRaft keys.
func (c *Config) Group() string {
	if c.JRaftPeers() {
		return c.JRaftGroupID
	}
	return c.ControllerDLegerGroup
}

// SelfID is this node's id: controllerDLegerSelfId, or jRaftServerId (its
// Raft address, as JRaft names peers) with the JRaft keys.
func (c *Config) SelfID() string {
	if c.JRaftPeers() {
		return strings.TrimSpace(c.JRaftServerID)
	}
	return c.ControllerDLegerSelfID
}

// Peers parses controllerDLegerPeers ("n0-127.0.0.1:9878;n1-127.0.0.1:9868"),
// or with the JRaft keys pairs jRaftInitConf's Raft addresses with
// jRaftControllerRPCAddr's broker-facing ones by position, each peer's id its
// Raft address (no port offset: JRaft lists both).
func (c *Config) Peers() ([]Peer, error) {
	if c.JRaftPeers() {
		return c.jraftPeers()
	}
	var peers []Peer
	for _, item := range strings.Split(c.ControllerDLegerPeers, ";") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		p, err := c.ParsePeer(item)
		if err != nil {
			return nil, fmt.Errorf("controllerDLegerPeers: %w", err)
		}
		if slices.ContainsFunc(peers, func(q Peer) bool { return q.ID == p.ID }) {
			return nil, fmt.Errorf("controllerDLegerPeers: id %s listed twice", p.ID)
		}
		peers = append(peers, p)
	}
	if len(peers) == 0 {
		return nil, errors.New("controllerDLegerPeers: no peer listed (want n0-host:port;n1-host:port;...)")
	}
	return peers, nil
}

func (c *Config) jraftPeers() ([]Peer, error) {
	split := func(s string) []string {
		var out []string
		for _, item := range strings.Split(s, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
		return out
	}
	raftAddrs, rpcAddrs := split(c.JRaftInitConf), split(c.JRaftControllerRPCAddr)
	if len(raftAddrs) == 0 || len(raftAddrs) != len(rpcAddrs) {
		return nil, fmt.Errorf("jRaftInitConf lists %d addresses and jRaftControllerRPCAddr %d: want the same number, paired by position",
			len(raftAddrs), len(rpcAddrs))
	}
	var peers []Peer
	for i := range raftAddrs {
		for _, addr := range []string{raftAddrs[i], rpcAddrs[i]} {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return nil, fmt.Errorf("jRaft peers: %q: %w", addr, err)
			}
		}
		if slices.ContainsFunc(peers, func(p Peer) bool { return p.ID == raftAddrs[i] }) {
			return nil, fmt.Errorf("jRaftInitConf: %s listed twice", raftAddrs[i])
		}
		peers = append(peers, Peer{ID: raftAddrs[i], Addr: rpcAddrs[i], RaftAddr: raftAddrs[i]})
	}
	return peers, nil
}

// Self returns the peer SelfID names.
func (c *Config) Self() (Peer, error) {
	peers, err := c.Peers()
	if err != nil {
		return Peer{}, err
	}
	for _, p := range peers {
		if p.ID == c.SelfID() {
			return p, nil
		}
	}
	if c.JRaftPeers() {
		return Peer{}, fmt.Errorf("jRaftServerId %q is not among jRaftInitConf", c.SelfID())
	}
	return Peer{}, fmt.Errorf("controllerDLegerSelfId %q is not among controllerDLegerPeers", c.ControllerDLegerSelfID)
}

// HTTPPort is the side port: httpListenPort when set (0 free, -1 off), else
// the self peer's port + HTTPPortOffset.
func (c *Config) HTTPPort() (int, error) {
	if c.HTTPListenPort != httpPortUnset {
		return c.HTTPListenPort, nil
	}
	self, err := c.Self()
	if err != nil {
		return 0, err
	}
	_, portText, _ := net.SplitHostPort(self.Addr)
	port, _ := strconv.Atoi(portText)
	if port+HTTPPortOffset > 65535 {
		return -1, nil
	}
	return port + HTTPPortOffset, nil
}
