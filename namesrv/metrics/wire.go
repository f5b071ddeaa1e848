package metrics

import (
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

// The counters other parts of the daemon keep in their own atomics (the
// remoting server's connection guard and outbound limit, the access
// checker, the notifier) are read here at scrape time: they are counted
// where things happen, and a scrape costs a few atomic loads, never a walk
// of the route tables.

// ConnCounts are the remoting server's connection figures.
type ConnCounts struct {
	Open           int64  // connections open now (the one count of open connections)
	Max            int64  // the connection cap in effect (maxConnections, or less under the file limit)
	Refused        uint64 // connections closed at once for being past the cap
	OutboundPauses uint64 // times a connection was left unread until its answers were written
	OutboundClosed uint64 // connections closed for holding more than connectionOutboundHardLimit
	OutboundHeld   int64  // answer bytes all connections hold unwritten now, against outboundMemoryLimit
	OutboundBusy   uint64 // worker answers replaced by SYSTEM_BUSY for outboundMemoryLimit
}

// ACLDenial is the refusals of one request class for one reason.
type ACLDenial struct {
	Class, Reason string
	Count         uint64
}

// ACLCounts are the access checker's counters.
type ACLCounts struct {
	Denials        []ACLDenial // every class and reason, zeros included
	Reloads        uint64      // accounts files loaded, the first included
	ReloadFailures uint64      // changed accounts files refused (the accounts in force stayed)
	// BasicPaceAddresses is how many source addresses the HTTP Basic
	// guess pacing follows (bounded by acl.BasicPaceAddresses).
	BasicPaceAddresses int
}

// NotifyCounts are the NOTIFY_MIN_BROKER_ID_CHANGE notifier's counters, by
// recipient.
type NotifyCounts struct {
	Sent    uint64 // sends that succeeded
	Failed  uint64 // sends that failed (dial or write)
	Dropped uint64 // recipients not sent to: queue full, or the budget passed
	Skipped uint64 // recipients skipped because a send to them failed just before
}

// Registration refusal reasons (the "reason" label of
// registrations_refused_total): why a REGISTER_BROKER changed nothing.
const (
	RefusedCRC              = "crc_mismatch"            // bodyCrc32 does not match the body
	RefusedHeartbeatTimeout = "heartbeat_timeout_range" // heartbeatTimeoutMillis outside its bounds
	RefusedLimit            = "limit_exceeded"          // a name, address, version or topic count past its bound
	RefusedIgnored          = "ignored_stale_version"   // an older stateVersion than the broker id's holder: ignored
	RefusedConnectionGone   = "connection_gone"         // the connection closed before it was applied
	RefusedSingleTopic      = "first_single_topic"      // a first registration with a single topic (Java's rule)
	RefusedUndecodable      = "body_not_decoded"        // the body did not decode
	RefusedRequestMemory    = "request_memory"          // no room in requestMemoryLimit to inflate the body
	RefusedFenced           = "fenced_by_controller"    // id 0 of a controller-managed set, not its elected master on its epoch
)

var refusalReasons = []string{RefusedCRC, RefusedHeartbeatTimeout, RefusedLimit, RefusedIgnored,
	RefusedConnectionGone, RefusedSingleTopic, RefusedUndecodable, RefusedRequestMemory, RefusedFenced}

// registerWired registers the metrics read from the sources above, and the
// counters of this file's hooks.
func (m *Metrics) registerWired(f factory, src Sources) {
	m.brokerConnsTotal = f.counter("broker_connections_opened_total",
		"Connections over which a broker registered for the first time (connections_opened_total minus this: client connections).")
	f.reg.MustRegister(&connCollector{read: src.Conns,
		refused: desc("connections_refused_total", "Connections closed at once for being past maxConnections."),
		max:     desc("connections_max", "The connection cap in effect (maxConnections, or less when the open file limit leaves less room)."),
		pauses: desc("outbound_pauses_total",
			"Times a connection's requests and socket were left unread until its answers were written: past connectionOutboundSoftLimit, while a large answer was handed out, or after a full pool's refusal."),
		closed: desc("outbound_closed_connections_total", "Connections closed for holding more than connectionOutboundHardLimit of unread answers."),
		held:   desc("outbound_held_bytes", "Answer bytes all connections hold unwritten now (worker answers queued and output buffers), against outboundMemoryLimit."),
		busy:   desc("outbound_budget_refusals_total", "Worker answers replaced by SYSTEM_BUSY because all connections together held outboundMemoryLimit."),
	})
	f.reg.MustRegister(&aclCollector{read: src.ACL,
		denials:  desc("acl_denials_total", "Requests refused NO_PERMISSION by the access checks, by request class and reason.", "class", "reason"),
		reloads:  desc("acl_reloads_total", "Accounts files (aclFile) loaded, the first one included."),
		failures: desc("acl_reload_failures_total", "Changed accounts files that did not parse or check: the accounts in force stayed."),
		paced:    desc("acl_basic_pace_addresses", "Source addresses the side port's HTTP Basic guess pacing follows (at most 4096)."),
	})
	f.reg.MustRegister(&loopConnsCollector{read: src.LoopConns,
		desc: desc("event_loop_connections", "Open connections on each event loop (by index, in the order the loops took their first connection).", "loop")})
	f.reg.MustRegister(&notifyCollector{read: src.Notify,
		desc: desc("notifications_total",
			"NOTIFY_MIN_BROKER_ID_CHANGE recipients by result: sent, failed, dropped (queue full or budget passed), skipped (failed just before).",
			"result")})
	m.refusals = f.counterSet("registrations_refused_total",
		"REGISTER_BROKER requests that changed nothing, by reason (refused or ignored; their answer says so).",
		"reason", refusalReasons...)
	m.elections = f.counterSet("controller_elections_applied_total",
		"Controller elections the route followed at once (the old master out, the new one at broker id 0), by source: embedded (the controller node of this process applied it), notice (a standalone controller's leader sent it). Repeats and older epochs are not counted.",
		"source", ElectionEmbedded, ElectionNotice)
	m.noticeRefusals = f.counterSet("controller_election_notices_refused_total",
		"Election notices (code 5001) refused, by reason: not_controller (the sender's IP is not a host of controllerAddr, or controllerAddr is empty), not_admin (aclEnable: not signed by an admin account), epoch_jump (masterEpoch more than controllerMaxEpochJump above the set's last), invalid (a field missing or out of bounds).",
		"reason", NoticeNotController, NoticeNotAdmin, NoticeEpochJump, NoticeInvalid)
	m.idConflicts = f.counterSet("broker_id_conflicts_total",
		"REGISTER_BROKER requests for a broker id another live address held, by outcome: taken_over (stateVersion not older than the holder's), ignored_stale_version (older: answered 0 without masterAddr, as Java does).",
		"outcome", ConflictTakenOver, ConflictIgnored)
	if src.EvictionPauses != nil { // the hook of the eviction job's pause detection
		read := src.EvictionPauses
		f.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: "eviction_pauses_total",
			Help: "Times the eviction job ran late past its pause threshold and extended every broker's deadline instead of evicting."},
			func() float64 { return float64(read()) }))
	}
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, labels, nil)
}

// BrokerConnOpened counts a connection over which a broker registered for
// the first time.
func (m *Metrics) BrokerConnOpened() { m.brokerConnsTotal.Inc() }

// RegistrationRefused counts a REGISTER_BROKER that changed nothing, for
// one of the Refused reasons.
func (m *Metrics) RegistrationRefused(reason string) {
	if c, ok := m.refusals[reason]; ok {
		c.Inc()
	}
}

// Election sources (the "source" label of controller_elections_applied_total).
const (
	ElectionEmbedded = "embedded" // the controller node this process embeds applied it
	ElectionNotice   = "notice"   // a standalone controller's leader sent it (NOTIFY_NAMESRV_MASTER_ELECTED)
)

// ElectionApplied counts an election the route followed, from one of the
// Election sources.
func (m *Metrics) ElectionApplied(source string) {
	if c, ok := m.elections[source]; ok {
		c.Inc()
	}
}

// Election notice refusal reasons (the "reason" label of
// controller_election_notices_refused_total).
const (
	NoticeNotController = "not_controller" // the sender is not a host of controllerAddr (or it is empty)
	NoticeNotAdmin      = "not_admin"      // aclEnable: not signed by an admin account
	NoticeEpochJump     = "epoch_jump"     // masterEpoch past controllerMaxEpochJump above the set's last
	NoticeInvalid       = "invalid"        // a field missing or out of bounds
)

// NoticeRefused counts an election notice refused, for one of the Notice
// reasons.
func (m *Metrics) NoticeRefused(reason string) {
	if c, ok := m.noticeRefusals[reason]; ok {
		c.Inc()
	}
}

// Broker id conflict outcomes (the "outcome" label of
// broker_id_conflicts_total).
const (
	ConflictTakenOver = "taken_over"            // the registration took the id (protocol.md 4.3 step 7)
	ConflictIgnored   = "ignored_stale_version" // the holder's stateVersion was greater: ignored
)

// BrokerIDConflict counts a registration for a broker id another live
// address held, for one of the Conflict outcomes.
func (m *Metrics) BrokerIDConflict(outcome string) {
	if c, ok := m.idConflicts[outcome]; ok {
		c.Inc()
	}
}

type connCollector struct {
	read                                     func() ConnCounts
	refused, max, pauses, closed, held, busy *prometheus.Desc
}

func (c *connCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.refused
	ch <- c.max
	ch <- c.pauses
	ch <- c.closed
	ch <- c.held
	ch <- c.busy
}

func (c *connCollector) Collect(ch chan<- prometheus.Metric) {
	n := c.read()
	ch <- prometheus.MustNewConstMetric(c.refused, prometheus.CounterValue, float64(n.Refused))
	ch <- prometheus.MustNewConstMetric(c.max, prometheus.GaugeValue, float64(n.Max))
	ch <- prometheus.MustNewConstMetric(c.pauses, prometheus.CounterValue, float64(n.OutboundPauses))
	ch <- prometheus.MustNewConstMetric(c.closed, prometheus.CounterValue, float64(n.OutboundClosed))
	ch <- prometheus.MustNewConstMetric(c.held, prometheus.GaugeValue, float64(n.OutboundHeld))
	ch <- prometheus.MustNewConstMetric(c.busy, prometheus.CounterValue, float64(n.OutboundBusy))
}

type aclCollector struct {
	read                       func() ACLCounts
	denials, reloads, failures *prometheus.Desc
	paced                      *prometheus.Desc
}

func (c *aclCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.denials
	ch <- c.reloads
	ch <- c.failures
	ch <- c.paced
}

func (c *aclCollector) Collect(ch chan<- prometheus.Metric) {
	n := c.read()
	for _, d := range n.Denials {
		ch <- prometheus.MustNewConstMetric(c.denials, prometheus.CounterValue, float64(d.Count), d.Class, d.Reason)
	}
	ch <- prometheus.MustNewConstMetric(c.reloads, prometheus.CounterValue, float64(n.Reloads))
	ch <- prometheus.MustNewConstMetric(c.failures, prometheus.CounterValue, float64(n.ReloadFailures))
	ch <- prometheus.MustNewConstMetric(c.paced, prometheus.GaugeValue, float64(n.BasicPaceAddresses))
}

// loopConnsCollector exports Sources.LoopConns, one series per event loop
// (the loops are known only once they have taken a connection).
type loopConnsCollector struct {
	read func() []int64
	desc *prometheus.Desc
}

func (c *loopConnsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *loopConnsCollector) Collect(ch chan<- prometheus.Metric) {
	for i, n := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), strconv.Itoa(i))
	}
}

type notifyCollector struct {
	read func() NotifyCounts
	desc *prometheus.Desc
}

func (c *notifyCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *notifyCollector) Collect(ch chan<- prometheus.Metric) {
	n := c.read()
	for _, r := range []struct {
		result string
		n      uint64
	}{{"sent", n.Sent}, {"failed", n.Failed}, {"dropped", n.Dropped}, {"skipped", n.Skipped}} {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.CounterValue, float64(r.n), r.result)
	}
}
