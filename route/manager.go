package route

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// Concurrency and lock order. There is exactly one lock, Manager.mu, held by
// every write (register, unregister, expiry, register topic, delete topic,
// perm changes, config changes) for its whole duration, so writes apply one
// at a time in the order they take it. Reads (routes, lists, cluster info,
// heartbeats, data version queries) never take it: they load the current
// immutable snapshot with one atomic load. Nothing is ever called with mu
// held that could take another lock, so there is no lock order to respect.
// Per-object caches (encoded routes and fragments) are filled by readers
// with atomic stores of immutable values; a racing duplicate build is
// harmless.

// DefaultHeartbeatTimeout is how long a broker stays live after its last
// registration or heartbeat when it does not say (Java's 120 s
// DEFAULT_BROKER_CHANNEL_EXPIRED_TIME).
const DefaultHeartbeatTimeout = 120 * time.Second

// Config holds the NameServer settings the route tables obey; all of them can
// change at run time (UPDATE_NAMESRV_CONFIG) through SetConfig.
type Config struct {
	// SupportActingMaster turns on the acting-master rewrite of routes
	// (protocol.md 4.7 step 7): a group without master shows its smallest-id
	// slave as id 0 for topics it cannot write.
	SupportActingMaster bool
	// DeleteTopicWithBrokerRegistration removes a broker's queue data for
	// topics missing from its full registration (4.3 step 11.1).
	DeleteTopicWithBrokerRegistration bool
	// NotifyMinBrokerIdChanged makes registrations and unregistrations return
	// the NOTIFY_MIN_BROKER_ID_CHANGE messages of 4.11 for the daemon to send.
	NotifyMinBrokerIdChanged bool
	// DefaultHeartbeatTimeout applies to brokers that register without
	// heartbeatTimeoutMillis, and to a master an election put at id 0
	// before it registered here (the NameServer's brokerChannelExpiredTime);
	// zero or less means DefaultHeartbeatTimeout.
	DefaultHeartbeatTimeout time.Duration
	// ControllerFencing fences the registrations as broker id 0 of a set
	// whose controller election this NameServer applied (ApplyElection,
	// fenceRegistration); off, every set keeps Java's rule (the larger
	// stateVersion wins), for mixed deployments with Java NameServers.
	ControllerFencing bool
	// MaxElectionEpochJump bounds how far an election's epoch may be
	// above the last one applied for its set under the same identity
	// (ApplyElection refuses it, ErrElectionEpochJump); 0: no bound. With
	// no record, or a new identity, any epoch is taken.
	MaxElectionEpochJump int64
	// Log receives the manager's lines (brokers registered, unregistered,
	// expired; requests ignored), written after the writer lock is
	// released. NewManager reads it (nil: logrus's standard logger);
	// SetConfig keeps the first, and Config returns it nil.
	Log *logrus.Entry
}

// ConnID is the identity of one transport connection, given by the daemon and
// never reused, so that a close event can be told apart from a later
// connection of the same broker.
type ConnID uint64

// Manager owns the route tables of the NameServer (Java RouteInfoManager):
// topicQueueTable, brokerAddrTable, clusterAddrTable, brokerLiveTable, the
// filter-server table and the static-topic mappings. It is pure: no sockets,
// no files, no clock; the daemon passes time in and sends what it returns.
type Manager struct {
	current atomic.Pointer[snapshot] // what readers see

	mu sync.Mutex // the writer lock; guards everything below

	// brokerTopics indexes topicQueueTable by broker name, so perm changes,
	// unregistration and deleteTopicWithBrokerRegistration cost the broker's
	// topics, not every topic.
	brokerTopics map[string]map[string]struct{}
	// queueDataEpoch changes whenever any queue data of a broker name changes
	// (added, removed or rewritten); a re-registration whose recorded epoch
	// still matches can skip its topic table (see register_topics.go).
	queueDataEpoch map[string]uint64
	epochClock     uint64
	// mappingEpoch changes with every static-topic mapping written.
	mappingEpoch uint64
	// brokerMappings finds the static-topic mappings each broker name's
	// registrations wrote, so they go when the name does (see mapping.go).
	brokerMappings map[string]map[mappingKey]struct{}
	// filedSinceCompact counts expiry filings since the wheel was last
	// rid of retired entries (see tables_live.go).
	filedSinceCompact int
	// generationClock numbers live entries; see Generation.
	generationClock uint64
	// connBrokers finds the live entries registered over a connection.
	connBrokers map[ConnID]map[brokerAddrInfo]struct{}
	// unregisterMarks are the applied unregisters of open connections, by
	// broker address (unregister_order.go).
	unregisterMarks map[brokerAddrInfo]unregisterMark
	// expiry finds expired live entries without walking all of them.
	expiry expiryWheel
	// pendingLogs are the lines of the current writer, written by unlock.
	pendingLogs []pendingLog
	// listsClock numbers snapshot.listsVersion and snapshot.routesVersion.
	listsClock uint64

	// lists caches encoded list answers (lists_cache.go); it has its own lock.
	lists listCache

	log *logrus.Entry // set once by NewManager
	// warnings rate-limits the warnings a request can cause (see unlock).
	warnings ratelog.Set

	// managed is the last election applied for each broker set a
	// controller manages (election.go).
	managed map[string]managedSet

	// views caches the operators' index of the current snapshot (view.go).
	views atomic.Pointer[viewIndex]
}

// NewManager returns a Manager with empty tables.
func NewManager(cfg Config) *Manager {
	log := cfg.Log
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	m := &Manager{
		log:             log,
		brokerTopics:    map[string]map[string]struct{}{},
		queueDataEpoch:  map[string]uint64{},
		connBrokers:     map[ConnID]map[brokerAddrInfo]struct{}{},
		unregisterMarks: map[brokerAddrInfo]unregisterMark{},
		expiry:          newExpiryWheel(),
		managed:         map[string]managedSet{},
	}
	m.current.Store(newSnapshot(normalizeConfig(cfg)))
	return m
}

// SetConfig applies changed settings; routes built under the old ones are
// rebuilt on their next query.
func (m *Manager) SetConfig(cfg Config) {
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	t.edit().cfg = normalizeConfig(cfg)
	t.routes = true
	t.commit()
}

// Config returns the settings in force.
func (m *Manager) Config() Config {
	return m.current.Load().cfg
}

func normalizeConfig(cfg Config) Config {
	cfg.Log = nil // the manager's, not a setting of the snapshot
	if cfg.DefaultHeartbeatTimeout <= 0 {
		cfg.DefaultHeartbeatTimeout = DefaultHeartbeatTimeout
	}
	return cfg
}
