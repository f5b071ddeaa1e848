package config

import (
	"slices"
	"strings"
)

// descriptions say what each key does, for the operator: docs/configuration.md
// is generated from them with the rest of the key table (Keys, Default,
// IsExtension, IsLive, IsProtected, Bounds, the choices); run `make docs` after
// changing one. TestEveryKeyIsDescribed fails when a key has none.
var descriptions = map[string]string{
	"rocketmqHome":                         "installation directory (informational)",
	"kvConfigPath":                         "KV config store file, Java's format (written atomically); `-data DIR`: `DIR/kvConfig.json`",
	"configStorePath":                      "where config updates are written (atomically): the `-c` file when one is given; `-data DIR`: `DIR/namesrv.properties`",
	"productEnvName":                       "unit name for `clusterTest`, which is accepted and ignored",
	"clusterTest":                          "cluster-test mode",
	"orderMessageEnable":                   "put `ORDER_TOPIC_CONFIG` into route answers (`orderTopicConf`)",
	"returnOrderTopicConfigToBroker":       "return `ORDER_TOPIC_CONFIG` to registering brokers",
	"clientRequestThreadPoolNums":          "accepted, no effect: route queries are answered on the event loop from snapshots, without a pool (kept for file compatibility)",
	"defaultThreadPoolNums":                "workers for registrations (REGISTER_BROKER, REGISTER_TOPIC_IN_NAMESRV), at most the processors less one (at least 1): the rest is left to the event loops",
	"clientRequestThreadPoolQueueCapacity": "accepted, no effect, as `clientRequestThreadPoolNums`",
	"defaultThreadPoolQueueCapacity":       "queue bound for other requests",
	"scanNotActiveBrokerInterval":          "broker expiry scan period, ms; protected (the `-c` file or the command line only: 86,400,000 over the wire would leave dead brokers routed for a day after the next start)",
	"unRegisterBrokerQueueCapacity":        "bound of the unregistration queue",
	"supportActingMaster":                  "acting-master rewrite of routes",
	"enableAllTopicList":                   "allow GET_ALL_TOPIC_LIST_FROM_NAMESERVER",
	"enableTopicList":                      "allow GET_TOPICS_BY_CLUSTER and the unit topic lists",
	"notifyMinBrokerIdChanged":             "send NOTIFY_MIN_BROKER_ID_CHANGE to brokers",
	"enableControllerInNamesrv":            "at start, run a RocketMQ 5 controller node in this process from the controller keys of the same -c file (controllerDLegerPeers, controllerDLegerSelfId, ...: controller/config/README.md), serving on the self peer's port, not listenPort; its own side port off (docs/controller.md). This key and the controller's keys in the file are protected: UPDATE_NAMESRV_CONFIG refuses them",
	"needWaitForService":                   "refuse route queries for a while after start",
	"waitSecondsForService":                "length of that while, s",
	"deleteTopicWithBrokerRegistration":    "registrations delete topics the broker no longer reports",
	"configBlackList":                      "extra keys updates may not change (read at start)",
	"bindAddress":                          "listen address",
	"listenPort":                           "listen port",
	"serverWorkerThreads":                  "Java Netty setting, kept for file compatibility",
	"serverCallbackExecutorThreads":        "Java Netty setting, kept for file compatibility",
	"serverSelectorThreads":                "Java Netty setting, kept for file compatibility",
	"serverOnewaySemaphoreValue":           "accepted, no effect: the only outgoing one-way sends (NOTIFY_MIN_BROKER_ID_CHANGE) go through their own queue of 1024 (kept for file compatibility)",
	"serverAsyncSemaphoreValue":            "accepted, no effect: the NameServer sends no asynchronous requests (kept for file compatibility)",
	"serverChannelMaxIdleTimeSeconds":      "idle connection timeout, s",
	"serverSocketSndBufSize":               "SO_SNDBUF of every accepted connection, bytes (0 = the kernel's autotuning)",
	"serverSocketRcvBufSize":               "SO_RCVBUF of every accepted connection, bytes (0 = the kernel's autotuning)",
	"writeBufferHighWaterMark":             "Java Netty setting, kept for file compatibility",
	"writeBufferLowWaterMark":              "Java Netty setting, kept for file compatibility",
	"serverSocketBacklog":                  "accepted, no effect: the listener uses the kernel's `somaxconn`",
	"serverNettyWorkerGroupEnable":         "Java Netty setting, kept for file compatibility",
	"serverPooledByteBufAllocatorEnable":   "Java Netty setting, kept for file compatibility",
	"enableShutdownGracefully":             "on shutdown, wait and answer GO_AWAY",
	"shutdownWaitTimeSeconds":              "length of that wait, s",
	"useEpollNativeSelector":               "Java Netty setting, kept for file compatibility",
	"frameMaxLength":                       "largest accepted frame, bytes (Java's JVM property of that name)",
	"requestMemoryLimit":                   "bytes of request frames held at once (large frames being read, requests waiting for or on a worker); past it a request is answered code 2 `[OVERLOAD]system busy, start flow control for a while`",
	"minBrokerHeartbeatTimeoutMillis":      "smallest `heartbeatTimeoutMillis` a registration may ask for, ms; below it the registration is refused, code 1",
	"maxBrokerHeartbeatTimeoutMillis":      "largest `heartbeatTimeoutMillis` a registration may ask for, ms; above it the registration is refused, code 1",
	"controllerFencing":                    "for a broker set whose controller election this NameServer applied (embedded controller, or a standalone one's notice), refuse a registration as broker id 0 unless it is the elected master with `stateVersion` = masterEpoch (code 1, counted as `fenced_by_controller`); `false`: every set keeps Java's rule, the larger `stateVersion` wins (mixed deployments with Java NameServers; docs/controller.md)",
	"controllerAddr":                       "the controllers' addresses, `host:port;host:port` (Java's broker key): an election notice (code 5001, a standalone controller's) is accepted only from a connection whose IP is one of these hosts (names resolved at start, and again in the background, at most every 10 s, when another address sends one: that notice is refused, the next is judged on the new addresses); with `aclEnable`, only signed by an admin account too. Empty: every notice is refused, code 16 naming this key. The embedded controller needs none ([security.md](security.md))",
	"controllerMaxEpochJump":               "how far an election notice's masterEpoch may be above the last one this NameServer applied for the set (same group identity); past it the notice is refused, code 1, and logged. With no record, or a new group identity, any epoch is taken. A master refused so is routed at its next registration",
	"brokerChannelExpiredTime":             "broker timeout, ms, of route entries no registration gave one to (Java's constant of that name): registrations without `heartbeatTimeoutMillis`, and a master an election put at id 0 before it registered here, which leaves the route this long after the election unless it registers",
	"maxConnections":                       "most connections open at once; past it a new connection is closed at once and counted (`Server.RefusedConnections`). Lowered at start, and logged, to what the open file limit leaves (RLIMIT_NOFILE minus the descriptors open then, minus 36 named in [Limits](operations.md#limits), minus the HTTP side port's cap), so that connections alone cannot exhaust it; TLS connections count from their accept, and at the cap a newcomer closes the oldest connection silent for 1 s since it connected",
	"connectionOutboundSoftLimit":          "bytes of answers waiting to be written to one connection past which its further requests are left unread and its socket is no longer read until the peer reads (so the peer's own send buffer fills); gnet's output buffer alone holds at most 256 KiB of them whatever this is",
	"outboundMemoryLimit":                  "answer bytes all connections together may hold unwritten (worker answers queued, a large body shared by several connections' answers, such as a cached topic list, counted once, plus output buffers, on gnet and TLS connections); past it a worker answer is replaced by SYSTEM_BUSY. 0: a quarter of `requestMemoryLimit`",
	"requestMemoryBrokerHeadroom":          "bytes of `requestMemoryLimit` only known brokers' connections may take: a connection that registered a broker, or one from an IP address a broker registered from in the last 10 minutes (4096 addresses remembered). The others (strangers, a new broker's first registration among them) stop at the limit minus it: past that a frame is answered code 2, or, while its header is still arriving (every partial small frame), its connection is closed. 0: a quarter of `requestMemoryLimit`; more than half is lowered to half",
	"requestMemoryPerConnection":           "request bytes one known broker's connection may hold (its frame being read plus its requests queued or running); past it the request is answered code 2. 0: an eighth of `requestMemoryLimit`; never less than `frameMaxLength`",
	"requestMemoryPerStranger":             "the same for a connection that is not a known broker's. 0: a 64th of `requestMemoryLimit`; never less than `frameMaxLength`, so a new broker's first registration of any size the frame limit takes fits",
	"largeFrameStallTimeoutMillis":         "a frame of 64 KiB or more that gets no byte for this long closes its connection (`rocketmq_namesrv_frame_closes_total{reason=\"stalled\"}`), its memory given back; also the window of `largeFrameMinBytesPerSecond`",
	"largeFrameMinBytesPerSecond":          "least rate of a frame of 64 KiB or more, over each window of `largeFrameStallTimeoutMillis` (or what the frame still lacks, when less): slower closes its connection (`reason=\"slow\"`). 0: only the stall applies",
	"connectionOutboundHardLimit":          "bytes waiting on one connection (answers not yet written plus requests left unread) past which it is closed",
	"logFormat":                            "`text` or `json`",
	"logLevel":                             "logrus level",
	"logFile":                              "where the log goes instead of stderr: a path (`~/` is the home folder; the folder is created), or `java` for Java's `~/logs/rocketmqlogs/namesrv.log`; rotated by size and age (next keys, backups beside it as `namesrv-<time>.log`), reopened on SIGHUP (after `logrotate` or `mv` moved it); empty: stderr",
	"logMaxSizeMB":                         "with `logFile`, the size in MB (1..1048576) at which the file is rotated (Java's namesrv.log: 100MB)",
	"logMaxAgeDays":                        "with `logFile`, rotated files older than this many days (0..36500) are removed; `0` keeps them whatever their age",
	"logMaxBackups":                        "with `logFile`, the rotated files kept (0..10000; Java keeps 5); `0` keeps all (within `logMaxAgeDays`)",
	"pauseDetectThresholdMillis":           "an expiry run this late (ms past its schedule) is a pause of the process: every broker's deadline is extended by the pause instead of evicting ([compatibility.md](compatibility.md#how-brokers-leave-the-routes))",
	"httpMaxConnections":                   "most connections open at once on the HTTP side port (lowered at start to a quarter of what the open file limit leaves); at the cap a new connection closes the oldest one that has been quiet (silent since it connected, or idle) for 1 s, else it is closed at once and counted",
	"httpIdleTimeoutSeconds":               "the side port closes a kept-alive connection idle this long, s",
	"httpHeavyViewConcurrency":             "heavy views (`/v1/debug`, `/v1/clusters`, `/v1/kv`, `?format=java` routes) served at once; more are answered `503` with `Retry-After: 1` at once",
	"httpHeavyViewMemoryLimit":             "bytes the heavy views in flight hold together (estimated from the table sizes); past it `503` with `Retry-After: 1`; one view larger than the whole budget is served when it is alone",
	"tlsHandshakeMaxConcurrent":            "TLS handshakes in progress on the remoting port at once (each counted by `maxConnections` from its accept); past it a new one closes the oldest handshake older than 1 s, else it is closed at once",
	"tlsHandshakeTimeoutMillis":            "a TLS handshake (and in permissive mode the first byte) on the remoting port must end within this, ms",
	"readinessWarmUpMillis":                "after a start, `/readyz` answers `503 not ready: warming up` this long (ms; one broker registration period, Java's `registerNameServerPeriod`), since until every broker has registered again a route query may get TOPIC_NOT_EXIST; `0` turns it off (tests). See [Rolling restart](operations.md#rolling-restart)",
	"httpBindAddress":                      "address of the HTTP side port: metrics, health, JSON view, address server, dashboard ([monitoring.md](monitoring.md)); empty: `bindAddress`",
	"httpListenPort":                       "HTTP side port; when neither the `-c` file nor a flag sets it, it follows `listenPort` (9876 -> 9880, 9877 -> 9881, listenPort `0` -> a free port), so two NameServers on one host need no flag for it; a port that cannot be bound stops the start with an error naming `httpListenPort`; `0` picks a free port (logged), `-1` turns it off",
	"addressServerList":                    "the NameServer list `/rocketmq/nsaddr` answers, `ip:port;ip:port`, each item host:port; protected: set in the `-c` file or on the command line only, since one update over the wire would redirect every HTTP-resolver client; empty: this server's advertised address (the bound one or, for `0.0.0.0`, the host's first non-loopback IPv4)",
	"peerNamesrvAddrs":                     "the other NameServers of this one's group, `ip:port;ip:port`, each item host:port, at most 16: the dashboard's peers panel asks each every 5 s (3 s timeout; over TLS when `tls.server.mode=enforcing`) for its cluster table and topic list and compares them with this server's; with `addressServerList` empty, `/rocketmq/nsaddr` answers this server's address followed by them; see `docs/dashboard.md`",
	"peerAccessKey":                        "the AccessKey the peer checks (`peerNamesrvAddrs`, the peers panel) are signed with, an account of the peers' accounts files, for peers with `aclEnable=true` and `aclAnonymousRouteRead=false`; empty: the checks are unsigned ([dashboard.md](dashboard.md#the-peers-panel)). Set (the same account on every NameServer of the group), it also turns on the KV config exchange with the peers every 5 s, signed with it, and is the only account whose exchange requests (codes 5010, 5011) are answered ([operations.md](operations.md#kv-config-between-nameservers)); empty: no KV exchange and no warm start",
	"peerWarmStartTimeoutMillis":           "how long a start waits for the warm start from the peers of `peerNamesrvAddrs` (ms): each is asked, signed with `peerAccessKey`, for its route state, installed as borrowed entries before the first route query is served; a peer that has not answered all of it by then is given up, and with none answering the server starts empty, as without peers. 0: no warm start ([operations.md](operations.md#warm-start-from-peers))",
	"peerRoutesHealMillis":                 "how long (ms) a route difference with a peer (a broker address or a topic on one side only) is shown as healing, a broker registered on one NameServer and not yet on the other, before it counts as lasting: `rocketmq_namesrv_peer_routes_agree` 0 and the panel's differences naming it. One broker registration period (Java's `registerNameServerPeriod`, 30 s) and two checks; set it above the brokers' period. `0`: every difference counts at once ([dashboard.md](dashboard.md#the-peers-panel))",
	"peerSecretKey":                        "the SecretKey of `peerAccessKey` (never listed by GET_NAMESRV_CONFIG, `/v1/config` or the log)",
	"aclEnable":                            "ACL 1.0 signatures and per-class authorization ([security.md](security.md))",
	"aclFile":                              "the accounts file, reloaded within two seconds of a change; empty: `plain_acl.yml` beside `kvConfigPath`",
	"aclAnonymousRouteRead":                "with `aclEnable`, unsigned route reads and lists are served",
	"adminWhiteRemoteAddresses":            "address patterns admin writes may come from, `;` or `,` separated, with or without ACL; empty: any address",
	"tls.server.mode":                      "`disabled`, `permissive` (TLS and plain on the remoting port) or `enforcing`",
	"tls.server.certPath":                  "PEM certificate chain of the server, reloaded on change",
	"tls.server.keyPath":                   "PEM private key of the server, reloaded on change",
	"tls.server.trustCertPath":             "PEM CA bundle client certificates are verified against",
	"tls.server.need.client.auth":          "`none`, `optional` or `require` a client certificate",
}

// Description is what key does, in a sentence or two for the operator; "" for
// an unknown key.
func Description(key string) string { return descriptions[key] }

// Choices are the words a word setting takes; nil for any other key.
func Choices(key string) []string { return slices.Clone(choices[key]) }

// IsBlackListedByDefault reports whether a default server refuses key over
// the wire with Java's black-list answer: the fixed list, plus the default
// configBlackList (a -c file can add keys to it).
func IsBlackListedByDefault(key string) bool {
	if slices.Contains(fixedBlackList, key) {
		return true
	}
	return slices.Contains(strings.Split(Default().ConfigBlackList, ";"), key)
}
