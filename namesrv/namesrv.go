// Package namesrv is the NameServer daemon: it binds the remoting server,
// dispatches every request code of protocol.md section 2 to its handler, and
// owns the route manager, the KV config store, the eviction job and the
// unregistration worker. Build one with New, stop it with Shutdown.
package namesrv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/hostset"
	"github.com/gonamesrv/gonamesrv/internal/monotime"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/warmstart"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// NameServer is one running NameServer. It is listening once New returns.
type NameServer struct {
	settings   *config.Settings
	log        *logrus.Entry
	routes     *route.Manager
	kv         *kvconfig.Store
	server     *remoting.Server
	brokers    *brokerConns
	unregister *unregisterWorker
	eviction   *evictionJob
	notifier   *notifier
	acl        *acl.Checker
	// controllers are controllerAddr's hosts, the only senders of
	// election notices taken (controller_hosts.go).
	controllers *hostset.Set
	// routeReadGuarded says route reads are checked (aclEnable): the fast
	// path then answers only those fastRouteAdmitted admits.
	routeReadGuarded bool
	startedAt        time.Time
	// warmUp is readinessWarmUpMillis, read once at start (Ready).
	warmUp time.Duration
	// gracefulWait is GracefulWait, read once at start (see graceful.go).
	gracefulWait time.Duration
	// registration holds the bounds registrations are checked against,
	// read once at start (see register_checks.go).
	registration registrationLimits
	// clock is what every liveness time given to the route manager is read
	// from: monotonic, so a wall-clock step neither stops nor triggers expiry.
	clock monotime.Clock
	// fullRegistrations bounds how many registrations decode and apply a
	// topic table at once (see registrationSlots).
	fullRegistrations slots
	// answerBuffers lends the route answers their bodies.
	answerBuffers remoting.AnswerBuffers
	// obs holds the metrics and the HTTP side port (observe.go).
	obs observability
	// warm is the warm start from peers (warm_start.go).
	warm warmState
	// warnings writes the per-request warnings a peer can cause (refused
	// registrations and the like) at most once a second per message, with
	// the count of those held back (ratelog).
	warnings ratelog.Set
}

// New loads the KV store, binds the listener of settings' bindAddress and
// listenPort (0 picks a free port; read it back with Addr) and starts the
// background work. A KV file that cannot be parsed is an error, as in Java.
func New(settings *config.Settings, log *logrus.Entry) (*NameServer, error) {
	cfg := settings.Get()
	if err := checkFilesWritable(cfg); err != nil {
		return nil, fmt.Errorf("namesrv: %w", err)
	}
	side, err := startHTTP(cfg, log)
	if err != nil {
		if taken := remotingPortTaken(cfg); taken != nil {
			return nil, fmt.Errorf("namesrv: %w", taken)
		}
		return nil, fmt.Errorf("namesrv: %w", err)
	}
	kv, err := kvconfig.Open(cfg.KvConfigPath, log.WithField("component", "kvconfig"))
	if err != nil {
		closeHTTP(side)
		return nil, fmt.Errorf("namesrv: load kv config: %w", err)
	}
	checker, err := newChecker(cfg, log.WithField("component", "acl"))
	if err != nil {
		closeHTTP(side)
		return nil, fmt.Errorf("namesrv: acl: %w", err)
	}
	ns := &NameServer{
		settings:    settings,
		log:         log,
		routes:      route.NewManager(withLog(routeConfig(cfg), log.WithField("component", "route"))),
		kv:          kv,
		acl:         checker,
		controllers: newControllerHosts(cfg.ControllerAddr, log.WithField("component", "election")),
		brokers:     newBrokerConns(),
		startedAt:   time.Now(),
		clock:       monotime.New(),
		warm:        newWarmState(cfg),

		gracefulWait: gracefulWaitOf(cfg, log),
		warmUp:       time.Duration(cfg.ReadinessWarmUpMillis) * time.Millisecond,
		registration: registrationLimitsOf(cfg),

		fullRegistrations: newSlots(registrationSlots()),
		obs:               observability{http: side},
	}
	ns.notifier = newNotifier(log.WithField("component", "notify"))
	ns.unregister = newUnregisterWorker(ns.routes, cfg.UnRegisterBrokerQueueCapacity, ns.notifier, ns.brokers,
		log.WithField("component", "unregister"))

	srvCfg := remoting.DefaultServerConfig()
	srvCfg.Addr = net.JoinHostPort(cfg.BindAddress, fmt.Sprint(cfg.ListenPort))
	srvCfg.Multicore = true
	srvCfg.IdleTimeout = time.Duration(cfg.ServerChannelMaxIdleTimeSeconds) * time.Second
	if cfg.MaxFrameSize > 0 {
		srvCfg.MaxFrameSize = cfg.MaxFrameSize
	}
	srvCfg.RequestMemoryLimit = cfg.RequestMemoryLimit
	applyRequestMemoryRules(&srvCfg, cfg)
	srvCfg.MaxConnections = cfg.MaxConnections
	if side != nil {
		srvCfg.ReservedDescriptors = side.MaxConnections()
	}
	srvCfg.OutboundMemoryLimit = cfg.OutboundMemoryLimit
	srvCfg.OutboundSoftLimit, srvCfg.OutboundHardLimit = cfg.ConnectionOutboundSoftLimit, cfg.ConnectionOutboundHardLimit
	srvCfg.SocketSendBuffer, srvCfg.SocketRecvBuffer = cfg.ServerSocketSndBufSize, cfg.ServerSocketRcvBufSize
	srvCfg.SlowWorkers = registrationWorkers(cfg.DefaultThreadPoolNums)
	srvCfg.SlowQueue = cfg.DefaultThreadPoolQueueCapacity
	srvCfg.Pools = map[string]remoting.PoolSize{adminPool: {Workers: adminPoolWorkers, Queue: adminPoolQueue},
		listPool: {Workers: listPoolWorkers, Queue: listPoolQueue}}
	srvCfg.Logger = log.WithField("component", "remoting")
	srvCfg.TLS = TLSOptions(cfg)
	ns.server = remoting.NewServer(srvCfg)
	ns.registerHandlers()
	ns.server.Handle(warmstart.Code, ns.peerRouteState, remoting.SlowIn(listPool))
	ns.server.OnClose(ns.connectionClosed)
	ns.obs.metrics = ns.newMetrics()

	// Before the listener: the first route query is answered from the
	// peers' state, not TOPIC_NOT_EXIST.
	ns.warm.fromPeers = ns.warmStart(cfg)
	if err := ns.server.Start(); err != nil {
		ns.notifier.close()
		ns.acl.Close()
		closeHTTP(side)
		return nil, fmt.Errorf("namesrv: listenPort=%d: listen on %s: %w", cfg.ListenPort, srvCfg.Addr, err)
	}
	ns.unregister.start()
	ns.eviction = newEvictionJob(ns.routes, ns.brokers, ns.notifier, time.Duration(cfg.ScanNotActiveBrokerInterval)*time.Millisecond,
		time.Duration(cfg.PauseDetectThresholdMillis)*time.Millisecond, ns.clock.Now, log.WithField("component", "eviction"))
	ns.eviction.onScan = ns.obs.metrics.EvictionScan
	ns.eviction.start()
	ns.startWarmKeeper(cfg)
	ns.startObserving()
	log.WithFields(logrus.Fields{"address": ns.Addr().String(), "serializeType": "JSON"}).
		Info("The Name Server boot success")
	ns.logStartSummary()
	return ns, nil
}

// PausesDetected counts the eviction runs that came late by more than
// pauseDetectThresholdMillis (the process was paused) and extended every
// broker's deadline instead of evicting; for metrics.
func (ns *NameServer) PausesDetected() int64 { return ns.eviction.pauses.Load() }

// Addr is the address the server listens on, with the real port when the
// configuration asked for port 0.
func (ns *NameServer) Addr() net.Addr { return ns.server.Addr() }

// Shutdown stops accepting connections, answers the requests in flight within
// ctx's deadline, then stops the eviction job and the unregistration worker.
// Every KV and config change was persisted when it was acknowledged, so there is
// nothing left to write. With enableShutdownGracefully it first answers GO_AWAY
// for shutdownWaitTimeSeconds (GracefulWait), as Java does, so that clients
// move to another NameServer before this one closes their connections.
func (ns *NameServer) Shutdown(ctx context.Context) error {
	ns.obs.stopping.Store(true)
	if wait := ns.GracefulWait(); wait > 0 {
		ns.server.GoAway()
		ns.log.WithField("wait", wait.String()).Info("answering GO_AWAY before stopping")
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
	}
	var errs []error
	if err := ns.server.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("namesrv: stop server: %w", err))
	}
	if ns.eviction != nil {
		ns.eviction.stop(ctx)
	}
	if ns.warm.keeper != nil {
		ns.warm.keeper.Stop()
	}
	if err := ns.stopObserving(ctx); err != nil {
		errs = append(errs, fmt.Errorf("namesrv: %w", err))
	}
	ns.unregister.stop()
	ns.notifier.closeWithin(ctx)
	ns.acl.Close()
	ns.log.Info("name server stopped")
	return errors.Join(errs...)
}

// withLog is cfg with the route manager's logger, which only NewManager reads.
func withLog(cfg route.Config, log *logrus.Entry) route.Config {
	cfg.Log = log
	return cfg
}

// GracefulWait is how long Shutdown answers GO_AWAY before stopping:
// shutdownWaitTimeSeconds with enableShutdownGracefully, 0 without, as
// they were at start (an update over the wire applies at the next start).
func (ns *NameServer) GracefulWait() time.Duration { return ns.gracefulWait }

// routeConfig takes the route manager's live settings out of the daemon's.
func routeConfig(cfg *config.Config) route.Config {
	return route.Config{
		SupportActingMaster:               cfg.SupportActingMaster,
		DeleteTopicWithBrokerRegistration: cfg.DeleteTopicWithBrokerRegistration,
		NotifyMinBrokerIdChanged:          cfg.NotifyMinBrokerIdChanged,
		ControllerFencing:                 cfg.ControllerFencing,
		MaxElectionEpochJump:              cfg.ControllerMaxEpochJump,
		DefaultHeartbeatTimeout:           time.Duration(cfg.BrokerChannelExpiredTime) * time.Millisecond,
	}
}
