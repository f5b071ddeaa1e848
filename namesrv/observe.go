package namesrv

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/httpapi"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// observability is what the NameServer shows operators: its metrics, the
// ring of samples behind the dashboard's charts, and the HTTP side port
// (nil when httpListenPort is -1).
type observability struct {
	metrics *metrics.Metrics
	stats   *metrics.Stats
	peers   *peers.Watcher // peer_watch.go
	kvsync  *kvsync.Syncer // kv_sync.go; nil without a peer account
	http    *httpapi.Server
	// stopping is set when a graceful stop begins: readiness turns 503
	// before GO_AWAY and before any connection is closed.
	stopping atomic.Bool
}

// startHTTP binds the side port before anything is loaded, so /healthz
// answers and /readyz says why the server is not ready yet.
func startHTTP(cfg *config.Config, log *logrus.Entry) (*httpapi.Server, error) {
	if cfg.HTTPListenPort < 0 {
		return nil, nil
	}
	host := cfg.HTTPBindAddress
	if host == "" {
		host = cfg.BindAddress
	}
	addr, log := net.JoinHostPort(host, fmt.Sprint(cfg.HTTPListenPort)), log.WithField("component", "http")
	var side *httpapi.Server
	var err error
	if cfg.TLSServerMode != config.TLSModeDisabled {
		side, err = httpapi.NewTLS(addr, log, httpOptions(cfg, log)) // the remoting port's certificate (README "Security")
	} else {
		side, err = httpapi.New(addr, log, httpOptions(cfg, log))
	}
	if err != nil {
		return nil, fmt.Errorf("httpListenPort=%d (default listenPort + %d) cannot be bound: set httpListenPort to a free port, or -1 to turn the HTTP side port off: %w",
			cfg.HTTPListenPort, config.HTTPPortOffset, err)
	}
	return side, nil
}

// httpOptions are the side port's bounds of cfg. Its connection cap is
// lowered to a quarter of what the file limit leaves (remoting.FileRoom),
// at least 8; the remoting port's cap leaves it that much
// (ServerConfig.ReservedDescriptors), so that neither port's connections
// can take the descriptors of the other, nor those of the KV file, the
// config file and the certificates.
func httpOptions(cfg *config.Config, log *logrus.Entry) httpapi.Options {
	limit := cfg.HTTPMaxConnections
	if room, ok := remoting.FileRoom(); ok && int64(limit) > room/4 {
		limit = int(max(8, room/4))
		log.WithFields(logrus.Fields{"httpMaxConnections": cfg.HTTPMaxConnections, "effective": limit}).
			Info("httpMaxConnections lowered to a quarter of what the open file limit (RLIMIT_NOFILE) leaves")
	}
	return httpapi.Options{
		MaxConnections: limit,
		IdleTimeout:    time.Duration(cfg.HTTPIdleTimeoutSeconds) * time.Second,
		HeavyViews:     cfg.HTTPHeavyViewConcurrency,
		HeavyMemory:    cfg.HTTPHeavyViewMemoryLimit,
	}
}

// metricsSources are the O(1) readers of the gauges.
func (ns *NameServer) metricsSources() metrics.Sources {
	return metrics.Sources{
		Counts:          ns.routes.Counts,
		Pools:           ns.server.PoolStats,
		RequestMemory:   ns.server.RequestMemory,
		UnregisterQueue: ns.unregister.queueStats,
		BrokerConns:     ns.brokers.count,
		LoopConns:       ns.server.EventLoopConnections,
		ExpiryExamined:  ns.routes.ExpiryExamined,
		Conns: func() metrics.ConnCounts {
			return metrics.ConnCounts{Open: ns.server.OpenConnections(), Max: ns.server.MaxConnections(),
				Refused: ns.server.RefusedConnections(), OutboundPauses: ns.server.OutboundPauses(),
				OutboundClosed: ns.server.OutboundClosedConnections(),
				OutboundHeld:   ns.server.OutboundHeldBytes(), OutboundBusy: ns.server.OutboundBudgetRefusals()}
		},
		ACL:    ns.aclCounts,
		Guards: ns.guardCounts,
		Frames: ns.frameCounts,
		Peers:  ns.peerCounts,
		Notify: ns.notifier.counts.read,
		// The eviction job is made after the metrics; it is there by the
		// first scrape that can see a pause.
		EvictionPauses: func() uint64 {
			if ns.eviction == nil {
				return 0
			}
			return uint64(ns.PausesDetected())
		},
	}
}

// aclCounts reads the access checker's counters, every class and reason
// (zeros too, so an alert on their increase sees the first denial).
func (ns *NameServer) aclCounts() metrics.ACLCounts {
	out := metrics.ACLCounts{Reloads: ns.acl.Reloads(), ReloadFailures: ns.acl.ReloadFailures(),
		BasicPaceAddresses: ns.acl.BasicPaceTracked()}
	for _, class := range acl.Classes() {
		for _, reason := range acl.Reasons() {
			out.Denials = append(out.Denials, metrics.ACLDenial{Class: class.String(), Reason: reason.String(),
				Count: ns.acl.Denied(class, reason)})
		}
	}
	return out
}

// newMetrics builds the metrics of a server being set up and hands the
// remoting server its observer; the worker pools are known by then.
func (ns *NameServer) newMetrics() *metrics.Metrics {
	m := metrics.New(ns.metricsSources(), []string{adminPool, listPool}, ns.startedAt)
	ns.server.SetObserver(m)
	ns.unregister.metrics = m
	return m
}

// startObserving starts the samples and gives the side port its source,
// once the server listens.
func (ns *NameServer) startObserving() {
	ns.obs.stats = ns.obs.metrics.StartStats(ns.metricsSources(), metrics.StatsInterval)
	ns.startPeerWatch()
	ns.startKVSync()
	if ns.obs.http == nil {
		return
	}
	ns.obs.http.Attach(&httpapi.Source{
		Routes:  ns.routes,
		Metrics: ns.obs.metrics,
		Stats:   ns.obs.stats,
		Peers:   ns.peerStatuses,
		Ready:   ns.Ready,
		KV:      ns.kv.All,
		Config:  func() map[string]string { return config.WithoutSecrets(ns.settings.Get().Values()) },
		// config.Pending values, by key.
		PendingRestart: func() any { return ns.settings.PendingRestart() },
		NameServers:    ns.nameServerList,
		RemoteOf:       ns.brokers.remote,
		OrderTopicConf: func(topic string) string {
			if !ns.settings.Get().OrderMessageEnable {
				return ""
			}
			conf, _ := ns.kv.Get(kvconfig.OrderTopicConfigNamespace, topic)
			return conf
		},
		Started: ns.startedAt,
		Now:     ns.clock.Now,
		Addr:    ns.Addr().String(),
		ACL:     ns.acl, TLS: ns.TLSConfig(), Drain: ns.drainBroker, Undrain: ns.undrainBroker, // drain.go
	})
	ns.log.WithField("address", ns.HTTPAddr().String()).Info("http side port serving")
}

// stopObserving ends the samples and the side port (the last thing a
// stopping server does, so readiness says "stopping" until the end).
func (ns *NameServer) stopObserving(ctx context.Context) error {
	if ns.obs.stats != nil {
		ns.obs.stats.Stop()
	}
	if ns.obs.peers != nil {
		ns.obs.peers.Stop()
	}
	if ns.obs.kvsync != nil {
		ns.obs.kvsync.Stop()
	}
	if ns.obs.http == nil {
		return nil
	}
	return ns.obs.http.Shutdown(ctx)
}

// HTTPAddr is the side port's address, with the real port when
// httpListenPort was 0; nil when it is off (-1).
func (ns *NameServer) HTTPAddr() net.Addr {
	if ns.obs.http == nil {
		return nil
	}
	return ns.obs.http.Addr()
}

// Ready says whether the NameServer should get traffic: not during the
// warm-up after a start (readinessWarmUpMillis: until its brokers have
// registered again a route query may find no route), nor during the
// needWaitForService window (route queries are refused), nor once a
// graceful stop began (GO_AWAY included). The KV loading case is the side
// port's own: it is not attached before the store is loaded.
func (ns *NameServer) Ready() (bool, string) {
	if ns.obs.stopping.Load() {
		return false, "shutting down"
	}
	cfg := ns.settings.Get()
	// A warm start from peers has the routes in: the warm-up is for a
	// server that starts empty.
	if left := ns.warmUp - time.Since(ns.startedAt); left > 0 && !ns.warm.fromPeers {
		return false, fmt.Sprintf("warming up: brokers re-register within one registration period, %s more (readinessWarmUpMillis)",
			left.Round(time.Second))
	}
	if cfg.NeedWaitForService {
		wait := time.Duration(cfg.WaitSecondsForService) * time.Second
		if left := wait - time.Since(ns.startedAt); left > 0 {
			return false, fmt.Sprintf("needWaitForService: route queries refused for %s more", left.Round(time.Second))
		}
	}
	return true, ""
}

// advertisedAddr is the address clients can reach this server at: the bound
// one, or for a wildcard bind the first non-loopback IPv4 address of the
// host (127.0.0.1 when there is none).
func advertisedAddr(bound net.Addr) string {
	tcp, ok := bound.(*net.TCPAddr)
	if !ok {
		return bound.String()
	}
	if !tcp.IP.IsUnspecified() {
		return tcp.String()
	}
	ip := "127.0.0.1"
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
				ip = n.IP.String()
				break
			}
		}
	}
	return net.JoinHostPort(ip, fmt.Sprint(tcp.Port))
}

// noteArrival records when the unregistration queue stopped being empty;
// w.mu is held.
func (w *unregisterWorker) noteArrival() {
	if len(w.requests) == 0 && len(w.closed) == 0 {
		w.oldest = time.Now()
	}
}

// counted reports n brokers removed for cause to the metrics.
func (w *unregisterWorker) counted(cause string, n int) {
	if w.metrics != nil {
		w.metrics.Unregistered(cause, n)
	}
}

// queueStats is the unregistration queue's depth and the time its oldest
// entry arrived (zero when empty), for the metrics.
func (w *unregisterWorker) queueStats() (int, time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.requests) + len(w.closed), w.oldest
}

// count is the number of open connections that registered a broker.
func (b *brokerConns) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.conns)
}

// remote is the peer address of a broker connection, "" once it closed.
func (b *brokerConns) remote(id route.ConnID) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if conn := b.conns[id]; conn != nil {
		return conn.RemoteAddr()
	}
	return ""
}

// closeHTTP stops a side port whose NameServer failed to start.
func closeHTTP(side *httpapi.Server) {
	if side != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = side.Shutdown(ctx)
	}
}

// registrationOutcome is what the metrics learn of one REGISTER_BROKER.
type registrationOutcome struct {
	started   time.Time
	bodyBytes int
	kind      string // "" until known: a bad header counts as a full table
	result    string // "" until known: an error
	refusal   string // why it changed nothing (metrics.Refused*), "" when it did or failed otherwise
}

// refused marks a registration refused (or ignored) for reason.
func (o *registrationOutcome) refused(reason string) {
	o.result, o.refusal = metrics.ResultRefused, reason
}

// observeRegistration counts a finished registration.
func (ns *NameServer) observeRegistration(o *registrationOutcome) {
	kind, result := o.kind, o.result
	if kind == "" {
		kind = metrics.RegistrationFullTable
	}
	if result == "" {
		result = metrics.ResultError
	}
	ns.obs.metrics.Registration(kind, result, o.bodyBytes, time.Since(o.started))
	if o.refusal != "" {
		ns.obs.metrics.RegistrationRefused(o.refusal)
	}
}

// AttachController shows a controller node embedded in this process
// (enableControllerInNamesrv) on the side port: /v1/controller, its
// metrics on /metrics and the dashboard's controller panel. Nothing when
// the side port is off.
func (ns *NameServer) AttachController(c httpapi.Controller) {
	if ns.obs.http != nil {
		ns.obs.http.AttachController(c)
	}
}
