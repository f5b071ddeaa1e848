// Package httpapi is the NameServer's HTTP side port: Prometheus metrics,
// health and readiness, a read-only JSON view of the route tables, the
// address server of the RocketMQ clients (/rocketmq/nsaddr) and the embedded
// dashboard. Every handler reads the same immutable snapshots as the wire:
// nothing here takes the route writer lock or slows a route query.
package httpapi

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/route"
)

// Limits of the side port (README "Monitoring").
const (
	// ReadHeaderTimeout and ReadTimeout bound a slow client's request.
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	// WriteTimeout bounds one answer (a /v1/debug dump of 40,000 topics
	// included).
	WriteTimeout = 30 * time.Second
	// MaxHeaderBytes bounds a request's header.
	MaxHeaderBytes = 16 << 10
	// MaxConcurrent bounds the requests served at once, probes apart
	// (ProbeConcurrent); more are answered 503 at once rather than queued.
	MaxConcurrent = 64
)

// Source is what the side port reads; the NameServer provides it once it
// has loaded its state (Attach).
type Source struct {
	Routes  *route.Manager
	Metrics *metrics.Metrics
	Stats   *metrics.Stats
	// Ready says whether the NameServer should get traffic, and why not.
	Ready func() (bool, string)
	// KV is the whole KV config store: namespace -> key -> value.
	KV func() map[string]map[string]string
	// Config is the effective config, every key.
	Config func() map[string]string
	// PendingRestart, when set, is the keys whose stored value applies
	// only at the next start, with the value running and the one stored.
	PendingRestart func() any
	// Peers is the last check of the other NameServers of the group
	// (package peers); nil shows none.
	Peers func() []peers.Status
	// NameServers is the address server's answer, "ip:port;ip:port".
	NameServers func() string
	// RemoteOf is the peer address of a connection a broker registered over
	// ("" when it is closed).
	RemoteOf func(route.ConnID) string
	// OrderTopicConf is the ORDER_TOPIC_CONFIG of a topic when the route
	// answers carry it (orderMessageEnable), "" otherwise.
	OrderTopicConf func(topic string) string
	Started        time.Time
	Addr           string // the remoting address
	// Now is the clock the route manager's liveness times are kept on (a
	// monotonic one, see internal/monotime); nil means time.Now.
	Now func() time.Time

	// ACL decides the HTTP Basic credentials asked for with aclEnable
	// (auth.go); nil or disabled leaves the read endpoints open and the
	// write endpoints refused.
	ACL *acl.Checker
	// TLS is the remoting port's TLS configuration (its certificates,
	// reloaded with it), served by a side port made with NewTLS.
	TLS *tls.Config
	// Drain and Undrain wipe and add the write permission of a broker name,
	// as WIPE_WRITE_PERM_OF_BROKER and ADD_WRITE_PERM_OF_BROKER do, and
	// return how many topics changed.
	Drain, Undrain func(brokerName string) int
}

// nowMillis is src's clock in Unix milliseconds, for ages of liveness times.
func (src *Source) nowMillis() int64 {
	if src.Now == nil {
		return time.Now().UnixMilli()
	}
	return src.Now().UnixMilli()
}

// Server is the side port; it listens once New returns.
type Server struct {
	log      *logrus.Entry
	listener net.Listener
	http     *http.Server
	source   atomic.Pointer[Source]
	// metrics is the /metrics handler of the attached source's registry.
	metrics atomic.Pointer[http.Handler]
	// controller is the embedded controller (controller.go); nil without.
	controller atomic.Pointer[Controller]
	slots      chan struct{}
	// probeSlots serve /healthz, /readyz and /metrics apart from slots.
	probeSlots chan struct{}
	heavyViews *heavyGate
	conns      *capListener
	served     chan struct{}
}

// New binds addr ("host:0" picks a free port, read it back with Addr) and
// serves. Until Attach, readiness answers 503 "loading the KV config store"
// and the JSON view 503.
func New(addr string, log *logrus.Entry, opts Options) (*Server, error) {
	return listen(addr, log, false, opts)
}

// NewTLS is New serving HTTPS only, with the certificates of the attached
// source's TLS (the remoting port's, reloaded with it). Until Attach no
// certificate is known and handshakes fail.
func NewTLS(addr string, log *logrus.Entry, opts Options) (*Server, error) {
	return listen(addr, log, true, opts)
}

func listen(addr string, log *logrus.Entry, https bool, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	inner, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("http side port: listen on %s: %w", addr, err)
	}
	s := &Server{log: log, slots: make(chan struct{}, MaxConcurrent), probeSlots: make(chan struct{}, ProbeConcurrent),
		heavyViews: newHeavyGate(opts.HeavyViews, opts.HeavyMemory), served: make(chan struct{})}
	s.conns = newCapListener(inner, opts.MaxConnections, log)
	var listener net.Listener = s.conns
	scheme := "http"
	if https {
		scheme = "https"
		listener = tls.NewListener(listener, &tls.Config{MinVersion: tls.VersionTLS12, GetConfigForClient: s.tlsConfig})
	}
	s.listener = listener
	s.http = &http.Server{
		Handler:           nosniff(s.limit(s.routes())),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          logrusErrorLog(log),
		ConnState:         s.conns.connState,
	}
	go func() {
		defer close(s.served)
		if err := s.http.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.WithError(err).Error("http side port stopped")
		}
	}()
	log.WithFields(logrus.Fields{"address": listener.Addr().String(), "scheme": scheme}).Info("http side port listening")
	return s, nil
}

// tlsConfig is the configuration of one HTTPS handshake: the attached
// source's, which takes the remoting port's certificates in force.
func (s *Server) tlsConfig(hello *tls.ClientHelloInfo) (*tls.Config, error) {
	src := s.source.Load()
	if src == nil || src.TLS == nil {
		return nil, errors.New("http side port: the certificate is not loaded yet")
	}
	if src.TLS.GetConfigForClient != nil {
		return src.TLS.GetConfigForClient(hello)
	}
	return src.TLS, nil
}

// Addr is the bound address.
func (s *Server) Addr() net.Addr { return s.listener.Addr() }

// Attach gives the side port what it shows.
func (s *Server) Attach(src *Source) {
	h := promhttp.HandlerFor(src.Metrics.Registry, promhttp.HandlerOpts{ErrorLog: logrusErrorLog(s.log)})
	s.metrics.Store(&h)
	s.source.Store(src)
}

// Shutdown stops accepting, lets the requests in flight finish within ctx,
// then closes every connection.
func (s *Server) Shutdown(ctx context.Context) error {
	err := s.http.Shutdown(ctx)
	if err != nil {
		_ = s.http.Close()
	}
	<-s.served
	if err != nil {
		return fmt.Errorf("http side port: shutdown: %w", err)
	}
	return nil
}

// probePaths are served within probeSlots, never behind the other
// endpoints: a liveness probe must not fail because 64 dashboards are slow.
var probePaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// limit answers 503 beyond MaxConcurrent requests in flight, or beyond
// ProbeConcurrent probes.
func (s *Server) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slots := s.slots
		if probePaths[r.URL.Path] {
			slots = s.probeSlots
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			next.ServeHTTP(w, r)
		default:
			writeError(w, http.StatusServiceUnavailable, "too many concurrent requests")
		}
	})
}

// routes is the side port's whole table of endpoints.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { writeText(w, http.StatusOK, "ok\n") })
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.attached(s.serveMetrics))
	mux.Handle("GET /v1/clusters", s.guarded(anyAccount, s.heavy(clustersEstimate, clusters)))
	mux.Handle("GET /v1/brokers", s.guarded(anyAccount, brokers))
	mux.Handle("GET /v1/brokers/{addr}", s.guarded(anyAccount, broker))
	mux.Handle("GET /v1/topics", s.guarded(anyAccount, topics))
	mux.Handle("GET /v1/topics/{topic}/route", s.guarded(anyAccount, s.topicRoute))
	mux.Handle("GET /v1/kv", s.guarded(adminAccount, s.heavy(kvEstimate, kv)))
	mux.Handle("GET /v1/config", s.guarded(adminAccount, configView))
	mux.Handle("GET /v1/whoami", s.guarded(anyAccount, whoami))
	mux.Handle("POST /v1/brokers/{brokerName}/drain", s.drainHandler("drain"))
	mux.Handle("POST /v1/brokers/{brokerName}/undrain", s.drainHandler("undrain"))
	mux.Handle("/v1/brokers/{brokerName}/drain", postOnly())
	mux.Handle("/v1/brokers/{brokerName}/undrain", postOnly())
	mux.Handle("GET /v1/status", s.guarded(anyAccount, status))
	mux.Handle("GET /v1/debug", s.guarded(anyAccount, s.heavy(debugEstimate, debugView)))
	mux.Handle("GET /v1/stats", s.guarded(anyAccount, stats))
	mux.Handle("GET /v1/peers", s.guarded(anyAccount, peerView))
	mux.Handle("GET /v1/controller", s.guarded(anyAccount, s.controllerView))
	mux.Handle("POST /v1/controller/leader", s.adminWrite(s.controllerLeader())) // controller_leader.go
	mux.Handle("/v1/controller/leader", postOnly())
	mux.Handle("POST /v1/controller/peers", s.adminWrite(s.controllerAddPeer())) // controller_peers.go
	mux.Handle("/v1/controller/peers", postOnly())
	mux.Handle("DELETE /v1/controller/peers/{id}", s.adminWrite(s.controllerRemovePeer()))
	mux.Handle("/v1/controller/peers/{id}", methodOnly(http.MethodDelete))
	mux.Handle("/v1/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	}))
	mux.Handle("GET /rocketmq/{subgroup}", s.attached(nsaddr))
	mux.Handle("GET /{$}", dashboardIndex())
	mux.Handle("GET /assets/", dashboardAssets())
	return mux
}

// attached runs h with the source, or answers 503 before Attach.
func (s *Server) attached(h func(*Source, http.ResponseWriter, *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		src := s.source.Load()
		if src == nil {
			writeError(w, http.StatusServiceUnavailable, "starting: loading the KV config store")
			return
		}
		h(src, w, r)
	})
}

// readyz is 200 while the NameServer should get traffic, 503 with the
// reason otherwise (loading, needWaitForService window, stopping). An
// embedded controller that is down adds a line naming its error but does
// not make it 503: readiness gates the Service that carries route queries,
// and those are served all the same; taking the pod out would stop them
// without bringing the controller back (brokers reach the controller by
// its own port, not the Service). rocketmq_controller_up 0 is what to
// alert on.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	var controller string
	if err := s.controllerDown(); err != nil {
		controller = "controller down: " + err.Error() + "\n"
	}
	src := s.source.Load()
	if src == nil {
		writeText(w, http.StatusServiceUnavailable, "not ready: loading the KV config store\n"+controller)
		return
	}
	if ready, why := src.Ready(); !ready {
		writeText(w, http.StatusServiceUnavailable, "not ready: "+why+"\n"+controller)
		return
	}
	writeText(w, http.StatusOK, "ready\n"+controller)
}

func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text))
}
