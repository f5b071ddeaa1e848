package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
)

// Config is every NameServer setting, under its Java key (the `prop` tag):
// the NamesrvConfig keys (protocol.md 6.1), the NettyServerConfig keys (6.2)
// and a few Go additions marked `ext`. A *Config handed out by Settings.Get is
// shared and must not be modified; use Clone.
type Config struct {
	// RocketmqHome is the installation directory; informational here.
	RocketmqHome string `prop:"rocketmqHome"`
	// KvConfigPath is the KV store file (package kvconfig).
	KvConfigPath string `prop:"kvConfigPath"`
	// ConfigStorePath is where UPDATE_NAMESRV_CONFIG writes the settings; the
	// -c file when one is given.
	ConfigStorePath string `prop:"configStorePath"`
	// ProductEnvName is the unit name used by clusterTest mode.
	ProductEnvName string `prop:"productEnvName"`
	// ClusterTest turns on cluster-test mode (protocol.md 2.25).
	ClusterTest bool `prop:"clusterTest"`
	// OrderMessageEnable puts ORDER_TOPIC_CONFIG into route answers.
	OrderMessageEnable bool `prop:"orderMessageEnable"`
	// ReturnOrderTopicConfigToBroker returns ORDER_TOPIC_CONFIG to registering brokers.
	ReturnOrderTopicConfigToBroker bool `prop:"returnOrderTopicConfigToBroker"`
	// ClientRequestThreadPoolNums is the worker count for route queries.
	ClientRequestThreadPoolNums int `prop:"clientRequestThreadPoolNums"`
	// DefaultThreadPoolNums is the worker count asked for registrations
	// (REGISTER_BROKER, REGISTER_TOPIC_IN_NAMESRV); the server runs at most
	// the processors less one of them (namesrv/register_pool.go).
	DefaultThreadPoolNums int `prop:"defaultThreadPoolNums"`
	// ClientRequestThreadPoolQueueCapacity bounds the queue of route queries.
	ClientRequestThreadPoolQueueCapacity int `prop:"clientRequestThreadPoolQueueCapacity"`
	// DefaultThreadPoolQueueCapacity bounds the queue of other requests.
	DefaultThreadPoolQueueCapacity int `prop:"defaultThreadPoolQueueCapacity"`
	// ScanNotActiveBrokerInterval is the period of the broker expiry scan, in ms.
	ScanNotActiveBrokerInterval int64 `prop:"scanNotActiveBrokerInterval"`
	// UnRegisterBrokerQueueCapacity bounds the queue of pending unregistrations.
	UnRegisterBrokerQueueCapacity int `prop:"unRegisterBrokerQueueCapacity"`
	// SupportActingMaster enables the acting-master rewrite of routes.
	SupportActingMaster bool `prop:"supportActingMaster"`
	// EnableAllTopicList allows GET_ALL_TOPIC_LIST_FROM_NAMESERVER.
	EnableAllTopicList bool `prop:"enableAllTopicList"`
	// EnableTopicList allows GET_TOPICS_BY_CLUSTER and the unit topic lists.
	EnableTopicList bool `prop:"enableTopicList"`
	// NotifyMinBrokerIdChanged sends NOTIFY_MIN_BROKER_ID_CHANGE to brokers.
	NotifyMinBrokerIdChanged bool `prop:"notifyMinBrokerIdChanged"`
	// EnableControllerInNamesrv starts a controller node in the process at start (cmd/namesrv, controller/node), from the controller keys of the same -c file, on the self peer's port.
	EnableControllerInNamesrv bool `prop:"enableControllerInNamesrv"`
	// NeedWaitForService refuses route queries for WaitSecondsForService after start.
	NeedWaitForService bool `prop:"needWaitForService"`
	// WaitSecondsForService is the length of that wait, in seconds.
	WaitSecondsForService int `prop:"waitSecondsForService"`
	// DeleteTopicWithBrokerRegistration drops topics a registering broker no longer reports.
	DeleteTopicWithBrokerRegistration bool `prop:"deleteTopicWithBrokerRegistration"`
	// ConfigBlackList is the `;`-separated list of extra keys UPDATE_NAMESRV_CONFIG may not change.
	ConfigBlackList string `prop:"configBlackList"`

	// BindAddress is the listen address.
	BindAddress string `prop:"bindAddress"`
	// ListenPort is the listen port (0 picks a free one, for tests).
	ListenPort int `prop:"listenPort"`
	// ServerWorkerThreads is a Java Netty setting, kept for the file format.
	ServerWorkerThreads int `prop:"serverWorkerThreads"`
	// ServerCallbackExecutorThreads is a Java Netty setting, kept for the file format.
	ServerCallbackExecutorThreads int `prop:"serverCallbackExecutorThreads"`
	// ServerSelectorThreads is a Java Netty setting, kept for the file format.
	ServerSelectorThreads int `prop:"serverSelectorThreads"`
	// ServerOnewaySemaphoreValue limits concurrent outgoing one-way sends.
	ServerOnewaySemaphoreValue int `prop:"serverOnewaySemaphoreValue"`
	// ServerAsyncSemaphoreValue limits concurrent outgoing asynchronous sends.
	ServerAsyncSemaphoreValue int `prop:"serverAsyncSemaphoreValue"`
	// ServerChannelMaxIdleTimeSeconds closes connections idle this long.
	ServerChannelMaxIdleTimeSeconds int `prop:"serverChannelMaxIdleTimeSeconds"`
	// ServerSocketSndBufSize is the socket send buffer (0 = OS default).
	ServerSocketSndBufSize int `prop:"serverSocketSndBufSize"`
	// ServerSocketRcvBufSize is the socket receive buffer (0 = OS default).
	ServerSocketRcvBufSize int `prop:"serverSocketRcvBufSize"`
	// WriteBufferHighWaterMark is a Java Netty back-pressure mark, kept for the file format.
	WriteBufferHighWaterMark int `prop:"writeBufferHighWaterMark"`
	// WriteBufferLowWaterMark is a Java Netty back-pressure mark, kept for the file format.
	WriteBufferLowWaterMark int `prop:"writeBufferLowWaterMark"`
	// ServerSocketBacklog is the listen backlog.
	ServerSocketBacklog int `prop:"serverSocketBacklog"`
	// ServerNettyWorkerGroupEnable is a Java Netty setting, kept for the file format.
	ServerNettyWorkerGroupEnable bool `prop:"serverNettyWorkerGroupEnable"`
	// ServerPooledByteBufAllocatorEnable is a Java Netty setting, kept for the file format.
	ServerPooledByteBufAllocatorEnable bool `prop:"serverPooledByteBufAllocatorEnable"`
	// EnableShutdownGracefully waits ShutdownWaitTimeSeconds and answers GO_AWAY on shutdown.
	EnableShutdownGracefully bool `prop:"enableShutdownGracefully"`
	// ShutdownWaitTimeSeconds is the graceful shutdown wait.
	ShutdownWaitTimeSeconds int `prop:"shutdownWaitTimeSeconds"`
	// UseEpollNativeSelector is a Java Netty setting, kept for the file format.
	UseEpollNativeSelector bool `prop:"useEpollNativeSelector"`

	// MaxFrameSize is the largest accepted frame in bytes (Java JVM property
	// com.rocketmq.remoting.frameMaxLength, a file key here). Go addition.
	MaxFrameSize int `prop:"frameMaxLength" ext:"true"`
	// RequestMemoryLimit bounds the bytes of request frames held at once:
	// large frames being read, and requests waiting for or running on a
	// worker. Past it a request is answered SYSTEM_BUSY. Go addition.
	RequestMemoryLimit int64 `prop:"requestMemoryLimit" ext:"true"`
	// MinBrokerHeartbeatTimeoutMillis and MaxBrokerHeartbeatTimeoutMillis
	// bound the heartbeatTimeoutMillis a registration may ask for; outside
	// them it is refused (code 1). Java takes any value, so one registration
	// could stay for 30,000 years. Go addition.
	MinBrokerHeartbeatTimeoutMillis int64 `prop:"minBrokerHeartbeatTimeoutMillis" ext:"true"`
	MaxBrokerHeartbeatTimeoutMillis int64 `prop:"maxBrokerHeartbeatTimeoutMillis" ext:"true"`
	// ControllerFencing refuses a registration as broker id 0 of a set
	// whose controller election this NameServer applied unless it is the
	// elected master with stateVersion = masterEpoch (docs/controller.md);
	// false keeps Java's rule for every set (mixed Java deployments). Go
	// addition.
	ControllerFencing bool `prop:"controllerFencing" ext:"true"`
	// ControllerAddr is the `;`-separated host:port list of the controllers
	// (Java's broker key of that name): election notices (code 5001) are
	// accepted only from these hosts; empty refuses every notice
	// (controller_hosts.go in package namesrv).
	ControllerAddr string `prop:"controllerAddr" ext:"true"`
	// ControllerMaxEpochJump is how far above the set's last applied
	// masterEpoch (of the same group identity) a notice's may be; past it
	// the notice is refused (route.Config.MaxElectionEpochJump). Go addition.
	ControllerMaxEpochJump int64 `prop:"controllerMaxEpochJump" ext:"true"`
	// BrokerChannelExpiredTime (Java's constant of that name, a key here)
	// is the broker timeout, ms, of route entries no registration gave a
	// timeout to: registrations without heartbeatTimeoutMillis, and a master
	// an election put at id 0 before it registered here.
	BrokerChannelExpiredTime int64 `prop:"brokerChannelExpiredTime" ext:"true"`
	// MaxConnections caps the open connections; past it a new one is closed
	// at once and counted. Go addition.
	MaxConnections int `prop:"maxConnections" ext:"true"`
	// ConnectionOutboundSoftLimit: answers waiting to be written to one
	// connection past which its further requests are left unread until the
	// peer reads. Go addition.
	ConnectionOutboundSoftLimit int `prop:"connectionOutboundSoftLimit" ext:"true"`
	// ConnectionOutboundHardLimit: bytes waiting on one connection (answers
	// unwritten plus requests unread) past which it is closed. Go addition.
	ConnectionOutboundHardLimit int `prop:"connectionOutboundHardLimit" ext:"true"`
	// OutboundMemoryLimit bounds the answers all connections hold unwritten
	// together; past it a worker's answer is replaced by SYSTEM_BUSY. 0 (the
	// default) means a quarter of requestMemoryLimit. Go addition.
	OutboundMemoryLimit int64 `prop:"outboundMemoryLimit" ext:"true"`
	// RequestMemoryBrokerHeadroom is the part of requestMemoryLimit only
	// known brokers may take (connections that registered a broker, or come
	// from an address one registered from in the last 10 minutes): the
	// others stop at the limit minus it. 0 (the default) means a quarter of
	// requestMemoryLimit; at most half of it is kept. Go addition.
	RequestMemoryBrokerHeadroom int64 `prop:"requestMemoryBrokerHeadroom" ext:"true"`
	// RequestMemoryPerConnection and RequestMemoryPerStranger bound the
	// request bytes one connection holds (its frame being read, its
	// requests queued or running): a known broker's, and any other's. 0
	// (the default) means an eighth, and a 64th, of requestMemoryLimit;
	// never less than frameMaxLength, so one frame always fits. Go addition.
	RequestMemoryPerConnection int64 `prop:"requestMemoryPerConnection" ext:"true"`
	RequestMemoryPerStranger   int64 `prop:"requestMemoryPerStranger" ext:"true"`
	// LargeFrameStallTimeoutMillis closes a connection whose frame of 64 KiB
	// or more got no byte for this long, or fewer than
	// LargeFrameMinBytesPerSecond a second over a window this long (0: no
	// rate, only the stall). Go addition.
	LargeFrameStallTimeoutMillis int64 `prop:"largeFrameStallTimeoutMillis" ext:"true"`
	LargeFrameMinBytesPerSecond  int64 `prop:"largeFrameMinBytesPerSecond" ext:"true"`
	// LogFormat is "text" or "json" (logrus formatter). Go addition.
	LogFormat string `prop:"logFormat" ext:"true"`
	// LogLevel is a logrus level name (debug, info, warn, ...). Go addition.
	LogLevel string `prop:"logLevel" ext:"true"`
	// LogFile, when set, is where the log goes instead of stderr: a path
	// ("~/" is the home folder), or "java" for Java's
	// ~/logs/rocketmqlogs/namesrv.log. Rotated past LogMaxSizeMB, backups
	// older than LogMaxAgeDays or beyond LogMaxBackups removed, reopened on
	// SIGHUP (cmd/namesrv). Go addition.
	LogFile       string `prop:"logFile" ext:"true"`
	LogMaxSizeMB  int    `prop:"logMaxSizeMB" ext:"true"`
	LogMaxAgeDays int    `prop:"logMaxAgeDays" ext:"true"` // 0: no age limit
	LogMaxBackups int    `prop:"logMaxBackups" ext:"true"` // 0: every backup kept (within the age)
	// PauseDetectThresholdMillis is how late (ms past its schedule) an expiry
	// scan must run to count as a pause of the process; the scan then extends
	// every broker's deadline by the pause instead of evicting. Go addition.
	PauseDetectThresholdMillis int64 `prop:"pauseDetectThresholdMillis" ext:"true"`
	// ReadinessWarmUpMillis is how long /readyz stays 503 ("warming up")
	// after a start: the brokers re-register within one registration period
	// (a Java broker's registerNameServerPeriod, 30 s), and until they have
	// this server answers TOPIC_NOT_EXIST for their topics. Go addition.
	ReadinessWarmUpMillis int64 `prop:"readinessWarmUpMillis" ext:"true"`

	// HTTPBindAddress is the HTTP side port's address (metrics, health, JSON
	// view, address server, dashboard); "" means BindAddress. Go addition.
	HTTPBindAddress string `prop:"httpBindAddress" ext:"true"`
	// HTTPListenPort is the HTTP side port: 0 picks a free one, -1 turns the
	// side port off. Go addition.
	HTTPListenPort int `prop:"httpListenPort" ext:"true"`
	// HTTPMaxConnections caps the side port's open connections (lowered
	// at start to a quarter of what the file limit leaves); at the cap a
	// new one closes the oldest quiet one or is closed. Go addition.
	HTTPMaxConnections int `prop:"httpMaxConnections" ext:"true"`
	// HTTPIdleTimeoutSeconds closes the side port's idle keep-alive
	// connections. Go addition.
	HTTPIdleTimeoutSeconds int `prop:"httpIdleTimeoutSeconds" ext:"true"`
	// HTTPHeavyViewConcurrency bounds the heavy views (/v1/debug, the
	// unpaged lists, a route in Java's encoding) served at once, and
	// HTTPHeavyViewMemoryLimit the bytes they hold together. Go addition.
	HTTPHeavyViewConcurrency int   `prop:"httpHeavyViewConcurrency" ext:"true"`
	HTTPHeavyViewMemoryLimit int64 `prop:"httpHeavyViewMemoryLimit" ext:"true"`
	// TLSHandshakeMaxConcurrent bounds the TLS handshakes in progress on the
	// remoting port, and TLSHandshakeTimeoutMillis each one. Go addition.
	TLSHandshakeMaxConcurrent int   `prop:"tlsHandshakeMaxConcurrent" ext:"true"`
	TLSHandshakeTimeoutMillis int64 `prop:"tlsHandshakeTimeoutMillis" ext:"true"`
	// AddressServerList is what /rocketmq/nsaddr answers ("ip:port;ip:port");
	// "" means this server's own advertised address. Go addition.
	AddressServerList string `prop:"addressServerList" ext:"true"`
	// PeerNamesrvAddrs are the other NameServers of this one's group
	// ("ip:port;ip:port"): the dashboard's peers panel checks them, and
	// /rocketmq/nsaddr answers this server and them when
	// addressServerList is empty. Go addition.
	PeerNamesrvAddrs string `prop:"peerNamesrvAddrs" ext:"true"`
	// PeerAccessKey and PeerSecretKey are the account the peer checks are
	// signed with (ACL 1.0, as a broker's requests), for peers with
	// aclEnable and without aclAnonymousRouteRead; empty: unsigned. The
	// secret is never listed (IsSecretKey). Go addition.
	PeerAccessKey string `prop:"peerAccessKey" ext:"true"`
	PeerSecretKey string `prop:"peerSecretKey" ext:"true"`
	// PeerWarmStartTimeoutMillis bounds the warm start from the peers of
	// peerNamesrvAddrs (namesrv/warmstart): a peer that has not answered
	// all its route state within it is given up, and with none answering
	// the server starts empty; 0: no warm start. Go addition.
	PeerWarmStartTimeoutMillis int64 `prop:"peerWarmStartTimeoutMillis" ext:"true"`
	// PeerRoutesHealMillis is how long a route difference with a peer is
	// told as healing (a broker registered on one NameServer and not yet on
	// the other) before it counts as lasting (namesrv/peers, heal.go). Go
	// addition.
	PeerRoutesHealMillis int64 `prop:"peerRoutesHealMillis" ext:"true"`

	// AclEnable turns on ACL 1.0 signatures and per-class authorization
	// (package acl). Go addition.
	AclEnable bool `prop:"aclEnable" ext:"true"`
	// AclFile is the plain_acl.yml of the accounts, reloaded when it
	// changes; "" means plain_acl.yml beside kvConfigPath (ACLFile). Go addition.
	AclFile string `prop:"aclFile" ext:"true"`
	// AclAnonymousRouteRead lets unsigned route reads and lists through
	// when AclEnable is set. Go addition.
	AclAnonymousRouteRead bool `prop:"aclAnonymousRouteRead" ext:"true"`
	// AdminWhiteRemoteAddresses, when not empty, is the `;`/`,`-separated
	// address patterns admin writes may come from, with or without ACL. Go addition.
	AdminWhiteRemoteAddresses string `prop:"adminWhiteRemoteAddresses" ext:"true"`

	// TLSServerMode is disabled, permissive (TLS and plain on the remoting
	// port) or enforcing (TLS only): Java's tls.server.mode.
	TLSServerMode string `prop:"tls.server.mode" ext:"true"`
	// TLSServerCertPath and TLSServerKeyPath are the server's PEM
	// certificate chain and key, reloaded when they change.
	TLSServerCertPath string `prop:"tls.server.certPath" ext:"true"`
	TLSServerKeyPath  string `prop:"tls.server.keyPath" ext:"true"`
	// TLSServerTrustCertPath is the PEM bundle of the CAs client
	// certificates are verified against.
	TLSServerTrustCertPath string `prop:"tls.server.trustCertPath" ext:"true"`
	// TLSServerNeedClientAuth is none, optional or require.
	TLSServerNeedClientAuth string `prop:"tls.server.need.client.auth" ext:"true"`

	// fileProperties holds every entry of the -c file as read (keys no
	// setting knows included), for GET_NAMESRV_CONFIG.
	fileProperties map[string]string
	// loadedFrom is the -c file, "" without one (store_note.go).
	loadedFrom string
	// unknownKeys are the -c file's keys no setting has (unknown_keys.go).
	unknownKeys []javaprops.UnknownKey
	// commandLineKeys are the keys the command line set (FromArgs), and
	// wireKeys those UPDATE_NAMESRV_CONFIG set since the start: a config
	// update writes the file's own value of a key the command line set,
	// unless the update set it itself (stored.go).
	commandLineKeys, wireKeys map[string]bool
}

// Defaults of the settings whose Java default does not depend on the machine.
const (
	// DefaultListenPort is the NameServer port (NettyServerConfig's own default is 0).
	DefaultListenPort = 9876
	// DefaultHTTPListenPort is the HTTP side port (httpListenPort).
	DefaultHTTPListenPort = 9880
	// DefaultMaxFrameSize is Java's default frameMaxLength (16 MiB).
	DefaultMaxFrameSize = 16777216
	// DefaultLargeFrameStallTimeoutMillis is largeFrameStallTimeoutMillis's
	// default (10 s): a broker sending its registration gets a byte through
	// far more often; a peer that stops that long is gone or idle on purpose.
	DefaultLargeFrameStallTimeoutMillis = 10_000
	// DefaultLargeFrameMinBytesPerSecond is largeFrameMinBytesPerSecond's
	// default (64 KiB/s): a 6 MB registration may take a minute and a half.
	DefaultLargeFrameMinBytesPerSecond = 64 << 10
	// DefaultRequestMemoryLimit is requestMemoryLimit's default (1 GiB):
	// 400 brokers registering 2 MB bodies at the same moment fit.
	DefaultRequestMemoryLimit = 1 << 30
	// DefaultMinBrokerHeartbeatTimeoutMillis and
	// DefaultMaxBrokerHeartbeatTimeoutMillis are the heartbeatTimeoutMillis
	// range a registration may ask for (Java brokers send 10000, or nothing
	// for the 120 s default).
	DefaultMinBrokerHeartbeatTimeoutMillis = 100
	DefaultMaxBrokerHeartbeatTimeoutMillis = 600_000
	// DefaultMaxConnections is maxConnections' default (remoting's).
	DefaultMaxConnections = 50000
	// DefaultConnectionOutboundSoftLimit (4 MiB) and
	// DefaultConnectionOutboundHardLimit (32 MiB): the hard one holds a
	// paused connection's soft bound, one answer of the largest frame and
	// 12 MiB of unread requests.
	DefaultConnectionOutboundSoftLimit = 4 << 20
	DefaultConnectionOutboundHardLimit = 32 << 20
	// DefaultLogMaxSizeMB and DefaultLogMaxBackups are Java's namesrv.log
	// rotation (rmq.namesrv.logback.xml: 100MB, maxIndex 5).
	DefaultLogMaxSizeMB  = 100
	DefaultLogMaxBackups = 5
	// JavaLogFile is the logFile value that means Java's location.
	JavaLogFile = "java"
	// DefaultConfigBlackList is the Java default of configBlackList.
	DefaultConfigBlackList = "configBlackList;configStorePath;kvConfigPath"
	// DefaultPauseDetectThresholdMillis is pauseDetectThresholdMillis'
	// default: far above a busy machine's timer jitter, below the 3 s
	// heartbeat timeouts of brokers that a short stop would otherwise evict.
	DefaultPauseDetectThresholdMillis = 1000
	// Defaults of the side port's bounds (namesrv/httpapi) and of the
	// remoting port's TLS handshakes (remoting).
	DefaultHTTPMaxConnections        = 128
	DefaultHTTPIdleTimeoutSeconds    = 10
	DefaultHTTPHeavyViewConcurrency  = 2
	DefaultHTTPHeavyViewMemoryLimit  = 64 << 20
	DefaultTLSHandshakeMaxConcurrent = 256
	DefaultTLSHandshakeTimeoutMillis = 10_000
	// DefaultBrokerChannelExpiredTime is brokerChannelExpiredTime's
	// default, Java's DEFAULT_BROKER_CHANNEL_EXPIRED_TIME (120 s).
	DefaultBrokerChannelExpiredTime = 120_000
	// DefaultControllerMaxEpochJump is controllerMaxEpochJump's default:
	// a masterEpoch grows by one per election, won or failed, so a
	// NameServer cut off from the controller for a long outage of a
	// flapping set misses a few hundred at most, while a notice of
	// 2147483647 would need 214,748 accepted notices. A legitimate notice
	// refused for it only waits for the master's registration (its newer
	// stateVersion is taken as the set's election).
	DefaultControllerMaxEpochJump = 10_000
	// DefaultReadinessWarmUpMillis is readinessWarmUpMillis' default: one
	// broker registration period (Java's registerNameServerPeriod).
	DefaultReadinessWarmUpMillis = 30_000
	// DefaultPeerWarmStartTimeoutMillis is peerWarmStartTimeoutMillis'
	// default: a peer at 100,000 topics answers in well under a second,
	// and a start waits at most this long for one that does not answer.
	DefaultPeerWarmStartTimeoutMillis = 3_000
	// DefaultPeerRoutesHealMillis is peerRoutesHealMillis' default: one
	// broker registration period (30 s) and two peer checks (5 s each).
	DefaultPeerRoutesHealMillis = 40_000
	// LogFormatText and LogFormatJSON are the accepted logFormat values.
	LogFormatText = "text"
	LogFormatJSON = "json"
	// The values of tls.server.mode and tls.server.need.client.auth (Java's;
	// the controller's port takes the same words).
	TLSModeDisabled    = portguard.TLSModeDisabled
	TLSModePermissive  = portguard.TLSModePermissive
	TLSModeEnforcing   = portguard.TLSModeEnforcing
	ClientAuthNone     = portguard.ClientAuthNone
	ClientAuthOptional = portguard.ClientAuthOptional
	ClientAuthRequire  = portguard.ClientAuthRequire
	// DefaultACLFileName is aclFile's name beside kvConfigPath.
	DefaultACLFileName = "plain_acl.yml"
)

// ACLFile is aclFile, or plain_acl.yml in kvConfigPath's folder when unset.
func (c *Config) ACLFile() string {
	if c.AclFile != "" {
		return c.AclFile
	}
	return filepath.Join(filepath.Dir(c.KvConfigPath), DefaultACLFileName)
}

// Default returns the Java defaults. rocketmqHome comes from $ROCKETMQ_HOME,
// else the user's home directory: unlike Java the server does not refuse to
// start without ROCKETMQ_HOME, because it reads nothing from there. The two
// file paths live under ${user.home}/namesrv/ as in Java.
func Default() *Config {
	home, err := os.UserHomeDir()
	if err != nil {
		home = "" // paths then become relative to the working directory
	}
	rocketmqHome := os.Getenv("ROCKETMQ_HOME")
	if rocketmqHome == "" {
		rocketmqHome = home
	}
	return &Config{
		RocketmqHome:                         rocketmqHome,
		KvConfigPath:                         filepath.Join(home, "namesrv", "kvConfig.json"),
		ConfigStorePath:                      filepath.Join(home, "namesrv", "namesrv.properties"),
		ProductEnvName:                       "center",
		ReturnOrderTopicConfigToBroker:       true,
		ClientRequestThreadPoolNums:          8,
		DefaultThreadPoolNums:                16,
		ClientRequestThreadPoolQueueCapacity: 50000,
		DefaultThreadPoolQueueCapacity:       10000,
		ScanNotActiveBrokerInterval:          5000,
		UnRegisterBrokerQueueCapacity:        3000,
		EnableAllTopicList:                   true,
		EnableTopicList:                      true,
		WaitSecondsForService:                45,
		ConfigBlackList:                      DefaultConfigBlackList,
		HTTPListenPort:                       DefaultHTTPListenPort,

		BindAddress:                        "0.0.0.0",
		ListenPort:                         DefaultListenPort,
		ServerWorkerThreads:                8,
		ServerSelectorThreads:              3,
		ServerOnewaySemaphoreValue:         256,
		ServerAsyncSemaphoreValue:          64,
		ServerChannelMaxIdleTimeSeconds:    120,
		ServerSocketBacklog:                1024,
		ServerNettyWorkerGroupEnable:       true,
		ServerPooledByteBufAllocatorEnable: true,
		ShutdownWaitTimeSeconds:            30,

		MaxFrameSize:                    DefaultMaxFrameSize,
		ControllerFencing:               true,
		ControllerMaxEpochJump:          DefaultControllerMaxEpochJump,
		BrokerChannelExpiredTime:        DefaultBrokerChannelExpiredTime,
		RequestMemoryLimit:              DefaultRequestMemoryLimit,
		MinBrokerHeartbeatTimeoutMillis: DefaultMinBrokerHeartbeatTimeoutMillis,
		MaxBrokerHeartbeatTimeoutMillis: DefaultMaxBrokerHeartbeatTimeoutMillis,
		MaxConnections:                  DefaultMaxConnections,
		LogFormat:                       LogFormatText,

		ConnectionOutboundSoftLimit:  DefaultConnectionOutboundSoftLimit,
		ConnectionOutboundHardLimit:  DefaultConnectionOutboundHardLimit,
		LargeFrameStallTimeoutMillis: DefaultLargeFrameStallTimeoutMillis,
		LargeFrameMinBytesPerSecond:  DefaultLargeFrameMinBytesPerSecond,
		LogLevel:                     "info",
		LogMaxSizeMB:                 DefaultLogMaxSizeMB,
		LogMaxBackups:                DefaultLogMaxBackups,

		AclAnonymousRouteRead:   true,
		TLSServerMode:           TLSModeDisabled,
		TLSServerNeedClientAuth: ClientAuthNone,

		PauseDetectThresholdMillis: DefaultPauseDetectThresholdMillis,
		ReadinessWarmUpMillis:      DefaultReadinessWarmUpMillis,
		PeerWarmStartTimeoutMillis: DefaultPeerWarmStartTimeoutMillis,
		PeerRoutesHealMillis:       DefaultPeerRoutesHealMillis,
		HTTPMaxConnections:         DefaultHTTPMaxConnections,
		HTTPIdleTimeoutSeconds:     DefaultHTTPIdleTimeoutSeconds,
		HTTPHeavyViewConcurrency:   DefaultHTTPHeavyViewConcurrency,
		HTTPHeavyViewMemoryLimit:   DefaultHTTPHeavyViewMemoryLimit,
		TLSHandshakeMaxConcurrent:  DefaultTLSHandshakeMaxConcurrent,
		TLSHandshakeTimeoutMillis:  DefaultTLSHandshakeTimeoutMillis,
	}
}

// Clone returns a deep copy that can be changed freely.
func (c *Config) Clone() *Config {
	clone := *c
	clone.fileProperties = maps.Clone(c.fileProperties)
	clone.commandLineKeys, clone.wireKeys = maps.Clone(c.commandLineKeys), maps.Clone(c.wireKeys)
	return &clone
}

// FileProperties returns a copy of the entries read from the -c file
// (nil without one), including keys that no setting knows.
func (c *Config) FileProperties() map[string]string {
	return maps.Clone(c.fileProperties)
}

// Validate reports settings the server cannot run with, wrapping
// ErrInvalidValue. Java checks none of these; a Go server fails fast instead
// of misbehaving later.
func (c *Config) Validate() error {
	if err := c.checkBounds(); err != nil {
		return err
	}
	if c.MaxBrokerHeartbeatTimeoutMillis < c.MinBrokerHeartbeatTimeoutMillis {
		return &KeyError{Key: "maxBrokerHeartbeatTimeoutMillis", Reason: fmt.Sprintf("%d is below minBrokerHeartbeatTimeoutMillis=%d",
			c.MaxBrokerHeartbeatTimeoutMillis, c.MinBrokerHeartbeatTimeoutMillis)}
	}
	if _, err := logrus.ParseLevel(c.LogLevel); err != nil {
		return &KeyError{Key: "logLevel", Reason: err.Error()}
	}
	if err := c.checkAddressServerList(); err != nil {
		return err
	}
	if err := checkAddrList("controllerAddr", c.ControllerAddr); err != nil {
		return err
	}
	return c.checkChoices()
}
