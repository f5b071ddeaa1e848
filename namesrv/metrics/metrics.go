package metrics

import (
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Namespace prefixes every metric name.
const Namespace = "rocketmq_namesrv"

// Version is the NameServer's version in build_info: the Java release whose
// protocol it speaks.
const Version = "5.3.3"

// Sources are the O(1) readers the gauges call at scrape time.
type Sources struct {
	Counts          func() route.Counts
	Pools           func() []remoting.PoolStat
	RequestMemory   func() (held, limit int64)
	UnregisterQueue func() (depth int, oldest time.Time) // zero oldest: empty
	BrokerConns     func() int                           // open connections that registered a broker
	LoopConns       func() []int64                       // open connections on each event loop, by loop index
	// ExpiryExamined is how many live entries the expiry scans looked at.
	ExpiryExamined func() uint64
	Conns          func() ConnCounts   // the remoting server's connection figures
	ACL            func() ACLCounts    // the access checker's denials and reloads
	Notify         func() NotifyCounts // the min broker id notifier's sends
	// EvictionPauses is the hook for the eviction job's pause detection
	// (issue 13, item 1): how many times it found itself run late and
	// extended the deadlines instead of evicting. nil until that job counts
	// them; rocketmq_namesrv_eviction_pauses_total is exported only when set.
	EvictionPauses func() uint64
	// Guards are the descriptor and heavy-view bounds' figures (guards.go);
	// nil exports none.
	Guards func() GuardCounts
	// Frames are the request memory figures of frames still arriving
	// (frames.go); nil exports none.
	Frames func() FrameCounts
	// Peers are the last checks of the peer NameServers (peers.go); nil
	// exports none.
	Peers func() []PeerStatus
}

// Registration kinds (the "kind" label of registrations_total).
const (
	RegistrationFullTable      = "full_table"       // a topic table decoded and applied
	RegistrationNewDataVersion = "new_data_version" // a new DataVersion with the table last applied: not decoded
	RegistrationUnchanged      = "unchanged"        // the same DataVersion and body: not decoded
)

// Registration results (the "result" label of registrations_total).
const (
	ResultSuccess = "success"
	ResultRefused = "refused" // refused or ignored (registrations_refused_total says why)
	ResultError   = "error"   // undecodable header or body
)

// Unregistration causes (the "cause" label of unregistrations_total).
const (
	CauseRequest   = "request"
	CauseConnClose = "connection_close"
	CauseEviction  = "eviction"
)

// Metrics is one NameServer's metrics, in a registry of its own (several
// NameServers in one test process do not share counters).
type Metrics struct {
	Registry *prometheus.Registry

	requests   *requestStats
	busy       map[string]prometheus.Counter
	busyOther  prometheus.Counter
	connsTotal prometheus.Counter
	// brokerConnsTotal counts connections a broker first registered over.
	brokerConnsTotal prometheus.Counter

	registrations   map[[2]string]prometheus.Counter
	regBodyBytes    prometheus.Observer
	regApplySeconds prometheus.Observer
	regOnLoop       prometheus.Counter
	heartbeats      prometheus.Counter
	unregistrations map[string]prometheus.Counter
	evictionScans   prometheus.Counter
	evictionSeconds prometheus.Observer
	evicted         prometheus.Counter
	kvWrites        map[string]prometheus.Counter
	kvRefused       prometheus.Counter
	kvFailures      prometheus.Counter
	configUpdates   map[string]prometheus.Counter
	refusals        map[string]prometheus.Counter // registrations refused or ignored, by reason
	elections       map[string]prometheus.Counter // controller elections the route followed, by source
	noticeRefusals  map[string]prometheus.Counter // election notices refused, by reason
	idConflicts     map[string]prometheus.Counter // registrations for a broker id another live address held, by outcome
}

// New builds the metrics of a NameServer started now, whose worker pools are
// pools ("" the default one).
func New(src Sources, pools []string, started time.Time) *Metrics {
	reg := prometheus.NewRegistry()
	f := factory{reg}
	m := &Metrics{Registry: reg}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	build := buildinfo.Read()
	f.gaugeFunc("build_info", "Always 1; the labels give the RocketMQ version spoken (version), the Go version and the build: module version, commit (revision), commit and build times.",
		prometheus.Labels{"version": Version, "goversion": runtime.Version(), "module_version": build.ModuleVersion,
			"revision": build.Commit, "commit_time": build.CommitTime, "build_time": build.BuildTime}, func() float64 { return 1 })
	startSeconds := float64(started.UnixNano()) / 1e9
	f.gaugeFunc("start_time_seconds", "Start time of the NameServer, seconds since the epoch.", nil,
		func() float64 { return startSeconds })

	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "request_duration_seconds",
		Help:    "Handler time of a request by request code name, on the event loop or a worker pool.",
		Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}},
		[]string{"code"})
	reg.MustRegister(latency)
	m.requests = newRequestStats(latency)
	reg.MustRegister(m.requests)

	m.connsTotal = f.counter("connections_opened_total", "Connections accepted.")
	f.gaugeFunc("connections_open", "Open connections by kind: broker (registered a broker over it) or client (every other).",
		prometheus.Labels{"kind": "broker"}, func() float64 { return float64(src.BrokerConns()) })
	f.gaugeFunc("connections_open", "Open connections by kind: broker (registered a broker over it) or client (every other).",
		prometheus.Labels{"kind": "client"}, func() float64 { return float64(max(0, src.Conns().Open-int64(src.BrokerConns()))) })

	table := func(name, help string, read func(route.Counts) int) {
		f.gaugeFunc(name, help, nil, func() float64 { return float64(read(src.Counts())) })
	}
	table("live_brokers", "Live brokers (brokerLiveTable).", func(c route.Counts) int { return c.LiveBrokers })
	table("clusters", "Clusters (clusterAddrTable).", func(c route.Counts) int { return c.Clusters })
	table("broker_groups", "Broker names (brokerAddrTable).", func(c route.Counts) int { return c.BrokerGroups })
	table("topics", "Topics (topicQueueTable).", func(c route.Counts) int { return c.Topics })
	table("queue_datas", "Queue data over all topics (one per topic and broker name).", func(c route.Counts) int { return c.QueueDatas })

	m.registrations = map[[2]string]prometheus.Counter{}
	regVec := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "registrations_total",
		Help: "REGISTER_BROKER requests by kind (full_table, new_data_version, unchanged) and result (success, refused, error)."},
		[]string{"kind", "result"})
	reg.MustRegister(regVec)
	for _, kind := range []string{RegistrationFullTable, RegistrationNewDataVersion, RegistrationUnchanged} {
		for _, result := range []string{ResultSuccess, ResultRefused, ResultError} {
			m.registrations[[2]string{kind, result}] = regVec.WithLabelValues(kind, result)
		}
	}
	m.regBodyBytes = f.histogram("registration_body_bytes", "Body size of REGISTER_BROKER requests.",
		prometheus.ExponentialBuckets(256, 4, 10)) // 256 B .. 64 MiB
	m.regApplySeconds = f.histogram("registration_apply_seconds",
		"Time to decode a registration's body and apply it to the route tables (the whole handler).",
		[]float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5})
	m.regOnLoop = f.counter("registrations_on_event_loop_total",
		"Successful REGISTER_BROKER requests answered on the event loop (an unchanged topic table, the writer lock free); the rest ran on the worker pool.")
	m.heartbeats = f.counter("heartbeats_total", "BROKER_HEARTBEAT requests.")

	m.unregistrations = f.counterSet("unregistrations_total",
		"Brokers removed, by cause: request (UNREGISTER_BROKER applied), connection_close, eviction.",
		"cause", CauseRequest, CauseConnClose, CauseEviction)
	f.gaugeFunc("unregister_queue_depth", "Unregistrations and connection closes waiting for the worker.", nil,
		func() float64 { depth, _ := src.UnregisterQueue(); return float64(depth) })
	f.gaugeFunc("unregister_queue_oldest_age_seconds", "Age of the oldest entry of the unregistration queue (0: empty).", nil,
		func() float64 {
			if _, oldest := src.UnregisterQueue(); !oldest.IsZero() {
				return time.Since(oldest).Seconds()
			}
			return 0
		})
	m.evictionScans = f.counter("eviction_scans_total", "Runs of the broker expiry scan.")
	m.evictionSeconds = f.histogram("eviction_scan_duration_seconds", "Duration of one expiry scan.",
		[]float64{.00001, .0001, .001, .01, .1, 1})
	m.evicted = f.counter("evicted_brokers_total", "Brokers the expiry scan removed.")
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: "eviction_examined_total",
		Help: "Live brokers the expiry scans looked at (those whose deadline came due, expired or refreshed since)."},
		func() float64 { return float64(src.ExpiryExamined()) }))

	m.busy = map[string]prometheus.Counter{}
	busyVec := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "system_busy_total",
		Help: "Requests answered SYSTEM_BUSY, by pool (default also counts the request memory limit)."}, []string{"pool"})
	reg.MustRegister(busyVec)
	for _, pool := range append([]string{""}, pools...) {
		m.busy[pool] = busyVec.WithLabelValues(poolLabel(pool))
	}
	m.busyOther = busyVec.WithLabelValues("other")
	reg.MustRegister(&poolCollector{src: src,
		depth:    desc("pool_queue_depth", "Requests waiting for a worker of the pool.", "pool"),
		capacity: desc("pool_queue_capacity", "Bound of the pool's queue.", "pool")})
	f.gaugeFunc("request_memory_bytes", "Request bytes held (large frames being read, requests queued or running on a worker).",
		nil, func() float64 { held, _ := src.RequestMemory(); return float64(held) })
	f.gaugeFunc("request_memory_limit_bytes", "requestMemoryLimit.", nil,
		func() float64 { _, limit := src.RequestMemory(); return float64(limit) })

	m.kvWrites = f.counterSet("kv_writes_total", "KV config changes acknowledged, by op.", "op", "put", "delete")
	m.kvFailures = f.counter("kv_persist_failures_total", "KV config changes refused because the file could not be written.")
	m.kvRefused = f.counter("kv_writes_refused_total", "KV config changes refused for passing a KV store limit (key, value, keys or file size).")
	m.configUpdates = f.counterSet("config_updates_total", "UPDATE_NAMESRV_CONFIG requests by result.",
		"result", ResultSuccess, ResultRefused, ResultError)
	m.registerWired(f, src)
	registerGuards(f, src.Guards)
	registerFrames(f, src.Frames, remoting.FrameCloseReasons[:])
	registerPeers(f, src.Peers)
	return m
}

func poolLabel(pool string) string {
	if pool == "" {
		return "default"
	}
	return pool
}

// The remoting.Observer side: called on event loops and workers.

// ConnOpened counts an accepted connection.
func (m *Metrics) ConnOpened(*remoting.Conn) { m.connsTotal.Inc() }

// ConnClosed does nothing: the open connections are the remoting server's
// own count (Sources.Conns), the one it caps them with.
func (m *Metrics) ConnClosed(*remoting.Conn) {}

// Answered counts one request by code and result, its handler time and bytes.
func (m *Metrics) Answered(requestCode, responseCode int32, took time.Duration, bytes int) {
	m.requests.answered(requestCode, responseCode, took, bytes)
}

// Busy counts a SYSTEM_BUSY answer of pool.
func (m *Metrics) Busy(pool string) {
	if c, ok := m.busy[pool]; ok {
		c.Inc()
		return
	}
	m.busyOther.Inc()
}

// RequestsOf returns how many requests of code were answered so far (any
// result), for the dashboard's rates.
func (m *Metrics) RequestsOf(code int32) uint64 { return m.requests.total(code) }

// The daemon's hooks.

// Registration counts one REGISTER_BROKER with its body size and handler time.
func (m *Metrics) Registration(kind, result string, bodyBytes int, took time.Duration) {
	if c, ok := m.registrations[[2]string{kind, result}]; ok {
		c.Inc()
	}
	m.regBodyBytes.Observe(float64(bodyBytes))
	m.regApplySeconds.Observe(took.Seconds())
}

// RegistrationOnLoop counts a registration answered on the event loop (it
// is counted by Registration too).
func (m *Metrics) RegistrationOnLoop() { m.regOnLoop.Inc() }

// Heartbeat counts a BROKER_HEARTBEAT.
func (m *Metrics) Heartbeat() { m.heartbeats.Inc() }

// Unregistered counts n brokers removed for cause.
func (m *Metrics) Unregistered(cause string, n int) {
	if n > 0 {
		m.unregistrations[cause].Add(float64(n))
	}
}

// EvictionScan counts one expiry scan that took took and removed evicted brokers.
func (m *Metrics) EvictionScan(took time.Duration, evicted int) {
	m.evictionScans.Inc()
	m.evictionSeconds.Observe(took.Seconds())
	m.evicted.Add(float64(evicted))
	m.Unregistered(CauseEviction, evicted)
}

// KVWrite counts a KV put or delete: persisted, or refused for a file error.
func (m *Metrics) KVWrite(op string, err error) {
	if err != nil {
		m.kvFailures.Inc()
		return
	}
	if c, ok := m.kvWrites[op]; ok {
		c.Inc()
	}
}

// KVRefused counts a KV change refused for passing a store limit: nothing
// was written, and nothing failed to be.
func (m *Metrics) KVRefused() { m.kvRefused.Inc() }

// ConfigUpdate counts an UPDATE_NAMESRV_CONFIG by result.
func (m *Metrics) ConfigUpdate(result string) {
	if c, ok := m.configUpdates[result]; ok {
		c.Inc()
	}
}

// poolCollector reads every pool's queue at scrape time.
type poolCollector struct {
	src             Sources
	depth, capacity *prometheus.Desc
}

func (p *poolCollector) Describe(ch chan<- *prometheus.Desc) { ch <- p.depth; ch <- p.capacity }

func (p *poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, pool := range p.src.Pools() {
		ch <- prometheus.MustNewConstMetric(p.depth, prometheus.GaugeValue, float64(pool.Queued), poolLabel(pool.Name))
		ch <- prometheus.MustNewConstMetric(p.capacity, prometheus.GaugeValue, float64(pool.Capacity), poolLabel(pool.Name))
	}
}

// factory registers metrics of the namespace in one registry.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

// counterSet is a counter vector with every label value resolved now.
func (f factory) counterSet(name, help, label string, values ...string) map[string]prometheus.Counter {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, []string{label})
	f.reg.MustRegister(vec)
	set := make(map[string]prometheus.Counter, len(values))
	for _, v := range values {
		set[v] = vec.WithLabelValues(v)
	}
	return set
}

func (f factory) histogram(name, help string, buckets []float64) prometheus.Observer {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: name, Help: help, Buckets: buckets})
	f.reg.MustRegister(h)
	return h
}

func (f factory) gaugeFunc(name, help string, labels prometheus.Labels, read func() float64) {
	f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help,
		ConstLabels: labels}, read))
}
