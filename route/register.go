package route

import (
	"fmt"
	"maps"
	"time"

	log "github.com/sirupsen/logrus"
)

// RegisterBrokerRequest is one REGISTER_BROKER, decoded by the daemon.
type RegisterBrokerRequest struct {
	ClusterName  string
	BrokerAddr   string
	BrokerName   string
	HAServerAddr string
	ZoneName     string // "" when the request had no __ZONE_NAME
	BrokerID     int64
	// HeartbeatTimeoutMillis is the header field; nil means the default.
	HeartbeatTimeoutMillis *int64
	// EnableActingMaster is the header field; nil marks an old broker, which
	// can never be a prime slave.
	EnableActingMaster *bool
	// Body is the decoded body; nil for a request without body (empty topic
	// table, all-zero DataVersion), unless UnchangedDataVersion is set.
	Body *RegisterBrokerBody
	// FilterServersGiven is false on the old (< V3_0_11) path, whose body has
	// no filter-server list: the filter-server table is then left alone.
	FilterServersGiven bool
	// Conn is the connection the request came in on.
	Conn ConnID
	// ConnOpen, when set, is asked under the writer lock whether Conn is
	// still open; a registration whose connection has closed is refused
	// with ErrConnectionGone and changes nothing. The daemon marks the
	// connection closed before it queues ConnectionClosed, so a
	// registration applied after that close cannot stand (a ghost broker).
	ConnOpen func() bool
	// ArrivalSeq is the request's arrival on Conn (0: unknown), which orders
	// it against an UNREGISTER_BROKER sent on the same connection.
	ArrivalSeq uint64
	// BodyFingerprint identifies the body bytes: any value that changes when
	// they change (the daemon can use the bodyCrc32 header field with the
	// body length); 0 means unknown. A registration whose fingerprint and
	// DataVersion equal those of the last one applied, with no queue-data
	// change since, skips its topic table (see topicTableCurrent).
	BodyFingerprint uint64
	// TableFingerprint identifies the body bytes without the wrapper's
	// DataVersion (RegisterBrokerTableFingerprint); 0 means unknown. A new
	// DataVersion with the same table as the last one written in full, with
	// no queue-data change since, skips writing it (see fullTableCurrent):
	// Java would rewrite every topic with the values already there.
	TableFingerprint uint64
	// UndecodedDataVersion, with a nil Body, says the daemon did not decode a
	// body carrying this DataVersion, BodyFingerprint and TableFingerprint,
	// because IsUnchangedRegistration or IsUnchangedTopicTable said its topic
	// table and filter servers would change nothing. RegisterBroker checks it
	// again under the lock and answers ErrTopicTableRequired, changing
	// nothing, if that no longer holds.
	UndecodedDataVersion *DataVersion

	// Version is the request's version (the broker's MQVersion), shown to
	// operators only.
	Version int32
	// NoWait is for a caller that must not wait (an event loop): the
	// registration is applied only if the writer lock is free at once
	// (ErrWriterBusy otherwise) and only with UndecodedDataVersion
	// (ErrTopicTableRequired otherwise), so it holds the lock for the
	// microseconds of a liveness refresh, never for a topic table.
	NoWait bool
}

// RegisterBrokerResult is what REGISTER_BROKER answers: the master's
// addresses for a slave whose master is live, empty strings otherwise.
type RegisterBrokerResult struct {
	MasterAddr   string
	HAServerAddr string
	// TakenOver, when set, says the registration took its broker id from
	// another address that was still in the live table (protocol.md 4.3
	// step 7: its stateVersion was not older than the holder's). RocketMQ
	// 5's controller-mode failover works this way: the new master registers
	// as id 0 with its master epoch while the old one may still be
	// connected. The daemon logs and counts it.
	TakenOver *BrokerIDTakeover
}

// BrokerIDTakeover names the holder a registration took a broker id from.
type BrokerIDTakeover struct {
	PreviousAddr         string
	PreviousStateVersion int64
	StateVersion         int64 // the registration's own
}

// registration carries one RegisterBroker call through its steps.
type registration struct {
	req      *RegisterBrokerRequest
	key      brokerAddrInfo
	wrapper  *TopicConfigSerializeWrapper // nil on the unchanged fast path
	dv       DataVersion
	nowMilli int64
}

var emptyTopicTable TopicConfigSerializeWrapper

func newRegistration(req *RegisterBrokerRequest, now time.Time) *registration {
	r := &registration{
		req:      req,
		key:      brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr},
		nowMilli: now.UnixMilli(),
	}
	switch {
	case req.Body != nil:
		r.wrapper = &req.Body.TopicConfigSerializeWrapper
		r.dv = r.wrapper.DataVersion
	case req.UndecodedDataVersion != nil:
		r.dv = *req.UndecodedDataVersion
	default:
		r.wrapper = &emptyTopicTable
	}
	return r
}

func (req *RegisterBrokerRequest) validate() error {
	switch {
	case req.ClusterName == "":
		return fmt.Errorf("clusterName: %w", ErrMissingField)
	case req.BrokerAddr == "":
		return fmt.Errorf("brokerAddr: %w", ErrMissingField)
	case req.BrokerName == "":
		return fmt.Errorf("brokerName: %w", ErrMissingField)
	}
	return nil
}

// IsUnchangedRegistration says whether a registration of (cluster, addr) as
// brokerID whose body carries dv and has the given fingerprint (see
// RegisterBrokerRequest.BodyFingerprint; 0 never matches) would change
// nothing but liveness, so the daemon may skip decoding the body and pass
// UnchangedDataVersion instead of Body. It is a hint read without the lock;
// RegisterBroker decides.
func (m *Manager) IsUnchangedRegistration(cluster, addr string, brokerID int64, dv DataVersion, fingerprint uint64) bool {
	s := m.current.Load()
	entry, ok := s.live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if fingerprint == 0 || !ok || entry.dataVersion != dv || entry.bodyFingerprint != fingerprint {
		return false
	}
	group, ok := s.groups.get(entry.brokerName)
	return ok && group.data.BrokerAddrs[brokerID] == addr
}

// IsUnchangedTopicTable says whether a registration of (cluster, addr) as
// brokerID whose body, without its DataVersion, has the given
// TableFingerprint (0 never matches) is likely to change nothing but the
// DataVersion and liveness, so the daemon may skip decoding the body and
// pass UndecodedDataVersion. It is a hint read without the lock (whether
// the broker's queue data is untouched since is only known under it);
// RegisterBroker decides.
func (m *Manager) IsUnchangedTopicTable(cluster, addr string, brokerID int64, tableFingerprint uint64) bool {
	s := m.current.Load()
	entry, ok := s.live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if tableFingerprint == 0 || !ok || entry.tableFingerprint != tableFingerprint {
		return false
	}
	group, ok := s.groups.get(entry.brokerName)
	return ok && group.data.BrokerAddrs[brokerID] == addr
}

// RegisterBroker applies REGISTER_BROKER (protocol.md 4.3). It returns the
// addresses to answer with and the min-broker-id notifications to send, or
// ErrRegisterRefused (step 8), ErrStaleStateVersion (step 7),
// ErrTopicTableRequired (fast path refused) or ErrMissingField.
func (m *Manager) RegisterBroker(req *RegisterBrokerRequest, now time.Time) (RegisterBrokerResult, []MinBrokerIDChange, error) {
	if err := req.validate(); err != nil {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", truncateForLog(req.BrokerAddr), err)
	}
	r := newRegistration(req, now)
	if err := req.checkBounds(r.dv); err != nil {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", truncateForLog(req.BrokerAddr), err)
	}
	if err := m.lockFor(req, r); err != nil {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, err)
	}
	defer m.unlock()
	if req.ConnOpen != nil && !req.ConnOpen() {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, ErrConnectionGone)
	}
	if err := m.supersededRegistration(req); err != nil {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, err)
	}
	if err := m.fenceRegistration(req, r.dv); err != nil {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, err)
	}
	r.req = m.electedAsSlave(req, r.dv)
	t := m.begin()
	if r.wrapper == nil && !m.canSkipTopicTable(t.view(), r) {
		return RegisterBrokerResult{}, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, ErrTopicTableRequired)
	}
	result, changes, err := m.register(t, r)
	t.commit()
	if err != nil {
		return result, nil, fmt.Errorf("register %s: %w", req.BrokerAddr, err)
	}
	m.registrationApplied(req)
	return result, changes, nil
}

// lockFor takes the writer lock for r: at once or not at all for a NoWait
// request, which must also carry no topic table.
func (m *Manager) lockFor(req *RegisterBrokerRequest, r *registration) error {
	switch {
	case !req.NoWait:
		m.mu.Lock()
	case r.wrapper != nil:
		return ErrTopicTableRequired
	case !m.mu.TryLock():
		return ErrWriterBusy
	}
	return nil
}

// register runs the steps of 4.3 in a transaction; the caller commits, also
// on ErrRegisterRefused and on a stale takeover, whose earlier steps Java
// keeps (quirk Q10 reproduced; the parity corpus shows the refused trace).
func (m *Manager) register(t *txn, r *registration) (RegisterBrokerResult, []MinBrokerIDChange, error) {
	req := r.req
	// Steps 1-3: cluster set, group, flags.
	t.addClusterBroker(req.ClusterName, req.BrokerName)
	oldGroup, exists := t.view().groups.get(req.BrokerName)
	firstRegistration := !exists
	data := BrokerData{Cluster: req.ClusterName, BrokerName: req.BrokerName}
	addrs := map[int64]string{}
	if exists {
		data = oldGroup.data
		addrs = maps.Clone(oldGroup.data.BrokerAddrs)
	}
	data.EnableActingMaster = req.EnableActingMaster != nil && *req.EnableActingMaster
	data.ZoneName = req.ZoneName
	// Step 4: the first member of an empty group never counts as a change.
	prevMinID, _ := minKey(addrs)
	minIDChanged := req.BrokerID < prevMinID
	// Step 6: one address, one id.
	for id, addr := range addrs {
		if addr == req.BrokerAddr && id != req.BrokerID {
			delete(addrs, id)
		}
	}
	// Step 7: an older state must not take over a newer broker's id; an
	// equal or newer one takes it over from a live holder (Java, #6317).
	var takenOver *BrokerIDTakeover
	if oldAddr, ok := addrs[req.BrokerID]; ok && oldAddr != req.BrokerAddr {
		if holder, live := t.view().live.get(brokerAddrInfo{cluster: req.ClusterName, addr: oldAddr}); live {
			if holder.dataVersion.StateVersion > r.dv.StateVersion {
				t.publishGroup(req.BrokerName, oldGroup, data, addrs)
				t.removeLive(r.key) // the daemon logs the error, and answers 0 as Java does
				return RegisterBrokerResult{}, nil, fmt.Errorf("%w: stateVersion %d is older than %d of %s, which holds broker id %d",
					ErrStaleStateVersion, r.dv.StateVersion, holder.dataVersion.StateVersion, oldAddr, req.BrokerID)
			}
			takenOver = &BrokerIDTakeover{PreviousAddr: oldAddr, PreviousStateVersion: holder.dataVersion.StateVersion,
				StateVersion: r.dv.StateVersion}
		}
	}
	// Step 8: a lone topic must not create a member (quirk Q9 reproduced).
	if _, member := addrs[req.BrokerID]; !member && r.wrapper != nil && len(r.wrapper.TopicConfigTable) == 1 {
		t.publishGroup(req.BrokerName, oldGroup, data, addrs)
		return RegisterBrokerResult{}, nil, ErrRegisterRefused
	}
	// Steps 9-10.
	if oldAddr := addrs[req.BrokerID]; oldAddr == "" {
		firstRegistration = true
	}
	addrs[req.BrokerID] = req.BrokerAddr
	group := t.publishGroup(req.BrokerName, oldGroup, data, addrs)
	// Step 11: topics, only from the master or the prime slave.
	prevLive, _ := t.view().live.get(r.key)
	var applied *topicsApplied
	if applies, wipeWrite := topicRole(addrs, req); applies {
		applied = m.applyTopicTable(t, r, prevLive, firstRegistration, wipeWrite)
	}
	// Steps 12-13: liveness and filter servers.
	m.refreshLive(t, r, prevLive, applied)
	if req.FilterServersGiven && req.Body != nil {
		t.setFilterServers(r.key, req.Body.FilterServerList)
	}
	// Steps 14-15.
	result := m.masterOf(t.view(), req, group)
	result.TakenOver = takenOver
	var changes []MinBrokerIDChange
	if minIDChanged && t.view().cfg.NotifyMinBrokerIdChanged {
		changes = []MinBrokerIDChange{newMinBrokerIDChange(req.BrokerName, group.data.BrokerAddrs, "", req.HAServerAddr)}
	}
	return result, changes, nil
}

// publishGroup stores the group built from data and addrs unless it equals
// the old one, so route caches that refer to the group stay valid.
func (t *txn) publishGroup(name string, old *brokerGroup, data BrokerData, addrs map[int64]string) *brokerGroup {
	data.BrokerAddrs = addrs
	if old != nil && sameBrokerData(&old.data, &data) {
		return old
	}
	group := newBrokerGroup(data)
	t.setGroup(name, group)
	return group
}

// refreshLive is step 12: it keeps the live entry when only its last-update
// time changes (a periodic re-registration, so the entry keeps its place in
// the expiry wheel and its generation) and replaces it otherwise.
func (m *Manager) refreshLive(t *txn, r *registration, prev *liveBroker, applied *topicsApplied) {
	req := r.req
	timeout := t.view().cfg.DefaultHeartbeatTimeout.Milliseconds()
	if req.HeartbeatTimeoutMillis != nil {
		timeout = *req.HeartbeatTimeoutMillis
	}
	entry := prev
	arrival := latestArrival(prev, req)
	if prev == nil || prev.conn != req.Conn || prev.timeoutMillis != timeout || prev.dataVersion != r.dv ||
		prev.haServerAddr != req.HAServerAddr || prev.brokerName != req.BrokerName ||
		prev.bodyFingerprint != req.BodyFingerprint || prev.tableFingerprint != r.tableFingerprint(prev) {
		m.generationClock++
		entry = &liveBroker{
			key:              r.key,
			timeoutMillis:    timeout,
			dataVersion:      r.dv,
			dataVersionJSON:  EncodeDataVersion(nil, r.dv),
			conn:             req.Conn,
			haServerAddr:     req.HAServerAddr,
			brokerName:       req.BrokerName,
			generation:       m.generationClock,
			bodyFingerprint:  req.BodyFingerprint,
			tableFingerprint: r.tableFingerprint(prev),
		}
		if prev != nil {
			entry.appliedTopics, entry.appliedEpoch, entry.appliedBody, entry.appliedWithDelete =
				prev.appliedTopics, prev.appliedEpoch, prev.appliedBody, prev.appliedWithDelete
			entry.fullApply = prev.fullApply
		} else {
			// Debug: the daemon logs the registration ("broker registered").
			m.logLater(log.DebugLevel, log.Fields{"cluster": req.ClusterName, "brokerAddr": req.BrokerAddr,
				"haServerAddr": req.HAServerAddr}, "new broker registered")
		}
	}
	entry.arrivalSeq = arrival
	entry.lastUpdateMillis.Store(r.nowMilli)
	entry.lastRegisterMillis.Store(r.nowMilli)
	entry.version.Store(req.Version)
	switch {
	case applied == nil:
		entry.appliedTopics = false
	case applied.ran:
		entry.appliedTopics, entry.appliedEpoch, entry.appliedBody, entry.appliedWithDelete =
			true, applied.epoch, applied.body, applied.withDelete
		entry.fullApply = applied.full
	}
	if entry != prev {
		t.setLive(r.key, entry)
	}
}

// tableFingerprint is what the live entry records as the fingerprint of the
// last body whose filter servers were applied: this body's when it was read
// with its list; the previous record when the body was skipped (its list
// was not read: equal to the last one, or the caveat of the README); 0 when
// the list was not applied from a known body.
func (r *registration) tableFingerprint(prev *liveBroker) uint64 {
	req := r.req
	switch {
	case req.Body != nil && req.FilterServersGiven:
		return req.TableFingerprint
	case req.Body == nil && req.UndecodedDataVersion != nil && prev != nil:
		return prev.tableFingerprint
	}
	return 0
}

// masterOf is step 14: a slave learns its master's address and HA address
// when the master is live.
func (m *Manager) masterOf(s *snapshot, req *RegisterBrokerRequest, group *brokerGroup) RegisterBrokerResult {
	if req.BrokerID == MasterID {
		return RegisterBrokerResult{}
	}
	masterAddr, ok := group.data.BrokerAddrs[MasterID]
	if !ok {
		return RegisterBrokerResult{}
	}
	master, ok := s.live.get(brokerAddrInfo{cluster: req.ClusterName, addr: masterAddr})
	if !ok {
		return RegisterBrokerResult{}
	}
	return RegisterBrokerResult{MasterAddr: masterAddr, HAServerAddr: master.haServerAddr}
}

// minKey returns the smallest id of a group's addresses, 0 and false when
// there is none.
func minKey(addrs map[int64]string) (int64, bool) {
	var smallest int64
	found := false
	for id := range addrs {
		if !found || id < smallest {
			smallest, found = id, true
		}
	}
	return smallest, found
}
