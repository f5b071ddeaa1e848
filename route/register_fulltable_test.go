package route

import (
	"errors"
	"hash/crc32"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// Tests of the skip of fullTableCurrent: a new DataVersion with the topic
// table last written in full. Each scenario runs twice, on a Manager given
// the fingerprints the daemon computes and on one given none (which always
// takes Java's full path), and the two must end in the same state.

// twinManagers are the fingerprinted Manager and its full-path reference.
type twinManagers struct {
	skipping, reference *Manager
}

func newTwins(cfg Config) twinManagers {
	return twinManagers{skipping: NewManager(cfg), reference: NewManager(cfg)}
}

// both runs change on each Manager.
func (tw twinManagers) both(change func(m *Manager)) {
	change(tw.skipping)
	change(tw.reference)
}

// encodedRequest is b's registration with configs as the daemon builds it
// from the wire: the decoded body plus the fingerprints of its bytes.
func encodedRequest(t testing.TB, b brokerInfo, filters []string, configs []TopicConfig,
	mappings map[string]TopicQueueMappingInfo) *RegisterBrokerRequest {
	t.Helper()
	req := b.request(configs...)
	req.Body.FilterServerList = filters
	req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = mappings
	raw := EncodeRegisterBrokerBody(nil, req.Body, DataVersion{})
	dv, tableFingerprint, err := RegisterBrokerTableFingerprint(raw)
	if err != nil || dv != b.dv || tableFingerprint == 0 {
		t.Fatalf("fingerprint of the encoded body: %v, %+v, %d", err, dv, tableFingerprint)
	}
	req.BodyFingerprint = uint64(crc32.ChecksumIEEE(raw))<<32 | uint64(len(raw))
	req.TableFingerprint = tableFingerprint
	return req
}

// undecoded is req as the daemon sends it when it skips the body.
func undecoded(req *RegisterBrokerRequest) *RegisterBrokerRequest {
	skip := *req
	skip.UndecodedDataVersion = &req.Body.TopicConfigSerializeWrapper.DataVersion
	skip.Body = nil
	return &skip
}

// register applies b's registration: the fingerprinted Manager tries the
// skip first and says whether it was taken; the reference always gets the
// body without fingerprints.
func (tw twinManagers) register(t *testing.T, b brokerInfo, configs []TopicConfig) (skipped bool) {
	t.Helper()
	return tw.registerWith(t, b, nil, configs, nil)
}

func (tw twinManagers) registerWith(t *testing.T, b brokerInfo, filters []string, configs []TopicConfig,
	mappings map[string]TopicQueueMappingInfo) (skipped bool) {
	t.Helper()
	req := encodedRequest(t, b, filters, configs, mappings)
	before := tw.skipping.current.Load()
	_, _, err := tw.skipping.RegisterBroker(undecoded(req), testNow)
	switch {
	case err == nil:
		skipped = true
	case errors.Is(err, ErrTopicTableRequired):
		if tw.skipping.current.Load() != before {
			t.Fatal("a refused skip changed the tables")
		}
		mustRegister(t, tw.skipping, req)
	default:
		t.Fatalf("register %s: %v", b.addr, err)
	}
	plain := encodedRequest(t, b, filters, configs, mappings)
	plain.BodyFingerprint, plain.TableFingerprint = 0, 0
	mustRegister(t, tw.reference, plain)
	return skipped
}

// assertSameState fails unless both Managers answer every query alike.
func (tw twinManagers) assertSameState(t *testing.T) {
	t.Helper()
	got, want := stateOf(tw.skipping), stateOf(tw.reference)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("state differs from Java's full path:\n got %+v\nwant %+v", got, want)
	}
}

// tablesState is everything of a snapshot that a query can see.
type tablesState struct {
	Topics   map[string][]QueueData
	Groups   map[string]BrokerData
	Live     map[brokerAddrInfo]liveState
	Clusters map[string][]string
	Filters  map[brokerAddrInfo][]string
	Mappings map[string]map[string]TopicQueueMappingInfo
}

type liveState struct {
	DataVersion  DataVersion
	Conn         ConnID
	HAServerAddr string
	BrokerName   string
	LastUpdate   int64
	Timeout      int64
}

func stateOf(m *Manager) tablesState {
	s := m.current.Load()
	state := tablesState{Topics: map[string][]QueueData{}, Groups: map[string]BrokerData{},
		Live: map[brokerAddrInfo]liveState{}, Clusters: s.clusters, Filters: s.filters.servers,
		Mappings: map[string]map[string]TopicQueueMappingInfo{}}
	for topic, entry := range s.topics.all() {
		state.Topics[topic] = slices.Clone(entry.queueDatas)
	}
	for name, group := range s.groups.all() {
		state.Groups[name] = group.data
	}
	for key, entry := range s.live.all() {
		state.Live[key] = liveState{entry.dataVersion, entry.conn, entry.haServerAddr, entry.brokerName,
			entry.lastUpdateMillis.Load(), entry.timeoutMillis}
	}
	for topic, mapping := range s.mappings {
		state.Mappings[topic] = maps.Clone(mapping.byBroker)
	}
	return state
}

// readOnlyTable is a broker's table with one read-only topic, so that
// ADD_WRITE_PERM changes something.
func readOnlyTable() []TopicConfig {
	return append(withBaseTopic(16, "T", "U"), topicConfig("RO", 8, PermRead))
}

func TestNewVersionSameTableSkipsAndEndsLikeTheFullPath(t *testing.T) {
	tw := newTwins(Config{})
	b := defaultMaster()
	if tw.register(t, b, readOnlyTable()) {
		t.Fatal("a first registration skipped its table")
	}
	for range 3 {
		b = b.nextVersion()
		if !tw.register(t, b, readOnlyTable()) {
			t.Fatal("a new DataVersion with the same table was not skipped")
		}
		tw.assertSameState(t)
	}
	if !tw.skipping.IsUnchangedTopicTable(b.cluster, b.addr, b.id, encodedRequest(t, b, nil, readOnlyTable(), nil).TableFingerprint) {
		t.Fatal("IsUnchangedTopicTable does not recognise the table")
	}
	// after the skip, the periodic re-registration of that version is the O(1) one
	if !tw.register(t, b, readOnlyTable()) {
		t.Fatal("an unchanged re-registration after a skip was not skipped")
	}
	tw.assertSameState(t)
}

func TestNewVersionWithAnotherTableIsApplied(t *testing.T) {
	tw := newTwins(Config{})
	b := defaultMaster()
	tw.register(t, b, readOnlyTable())
	changed := append(withBaseTopic(16, "T", "U"), topicConfig("RO", 4, PermRead))
	if tw.register(t, b.nextVersion(), changed) {
		t.Fatal("a changed table was skipped")
	}
	tw.assertSameState(t)
	if got := mustRoute(t, tw.skipping, "RO").QueueDatas[0].ReadQueueNums; got != 4 {
		t.Fatalf("RO has %d read queues, want 4", got)
	}
}

func TestChangedFilterServersAreNotSkipped(t *testing.T) {
	tw := newTwins(Config{})
	b := defaultMaster()
	tw.registerWith(t, b, []string{"10.0.0.1:1"}, readOnlyTable(), nil)
	if tw.registerWith(t, b.nextVersion(), []string{"10.0.0.2:1"}, readOnlyTable(), nil) {
		t.Fatal("a changed filter-server list was skipped")
	}
	tw.assertSameState(t)
}

// Every change below touches the broker name's queue data or the rule that
// writes it: the next new DataVersion with the same table must take the full
// path and end as Java's does.
func TestEveryQueueDataChangeForcesTheFullPath(t *testing.T) {
	master := defaultMaster()
	cases := []struct {
		name  string
		cfg   Config
		setup func(t *testing.T, tw twinManagers) // after the master's first registration
		// table is what the master sends after setup; nil: readOnlyTable
		table []TopicConfig
		// change runs between the two registrations of the master
		change func(t *testing.T, tw twinManagers)
	}{
		{name: "wipe write perm", change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) { m.WipeWritePerm(master.name) })
		}},
		{name: "add write perm", change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) { m.AddWritePerm(master.name) })
		}},
		{name: "delete topic", change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) { m.DeleteTopic("T", "") })
		}},
		{name: "delete topic in the cluster", change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) { m.DeleteTopic("T", master.cluster) })
		}},
		{name: "register topic", change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) {
				m.RegisterTopic("T", []QueueData{{BrokerName: master.name, ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6}})
			})
		}},
		{name: "another member writes the broker name's queue data", change: func(t *testing.T, tw twinManagers) {
			// a new master address takes id 0 with other perms; the old one
			// comes back with its own table afterwards
			// (a member of the group first, as a promoted slave would be)
			other := master.withAddr("127.0.0.1:10999")
			other.conn = 9
			other.id = 1
			tw.register(t, other, withBaseTopic(16, "T", "U"))
			other.id = master.id
			tw.register(t, other, append(withBaseTopic(16, "T", "U"), topicConfig("RO", 8, PermRead|PermWrite)))
			other.id = 2 // and steps down, so the old master may have id 0 back
			tw.register(t, other, withBaseTopic(16, "T", "U"))
		}},
		{name: "topic deletion turned on", setup: func(*testing.T, twinManagers) {
			// the table the master sends from now on lost U, which stays
			// while deletion is off
		}, table: append(withBaseTopic(16, "T"), topicConfig("RO", 8, PermRead)), change: func(_ *testing.T, tw twinManagers) {
			tw.both(func(m *Manager) { m.SetConfig(Config{DeleteTopicWithBrokerRegistration: true}) })
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTwins(tc.cfg)
			b := master
			tw.register(t, b, readOnlyTable())
			table := readOnlyTable()
			if tc.setup != nil {
				tc.setup(t, tw)
				if tc.table != nil {
					table = tc.table
				}
				b = b.nextVersion()
				tw.register(t, b, table)
			}
			tc.change(t, tw)
			b = b.nextVersion().nextVersion()
			if tw.register(t, b, table) {
				t.Fatal("the registration after the change skipped its table")
			}
			tw.assertSameState(t)
			// and with nothing changed since, the next one skips again
			if !tw.register(t, b.nextVersion().nextVersion().nextVersion(), table) {
				t.Fatal("the registration after a full apply did not skip")
			}
			tw.assertSameState(t)
		})
	}
}

func TestMemberUnregisteringForcesTheFullPath(t *testing.T) {
	tw := newTwins(Config{})
	slave := defaultSlave() // prime slave with acting master: writes read-only
	tw.register(t, slave, readOnlyTable())
	tw.register(t, defaultMaster(), readOnlyTable()) // the master rewrites them writable
	// the master leaves: the cleanup of 4.5 wipes the write perm of a group
	// with acting master enabled and no master left
	tw.both(func(m *Manager) { unregister(m, defaultMaster()) })
	if tw.register(t, slave.nextVersion(), readOnlyTable()) {
		t.Fatal("the prime slave skipped its table after a member left")
	}
	tw.assertSameState(t)
}

func TestStaticMappingWrittenByAnotherBrokerForcesTheFullPath(t *testing.T) {
	tw := newTwins(Config{})
	b := defaultMaster()
	ours := map[string]TopicQueueMappingInfo{"S": {Topic: "S", Scope: DefaultMappingScope, Bname: b.name, TotalQueues: 8, Epoch: 1}}
	tw.registerWith(t, b, nil, readOnlyTable(), ours)
	// another broker name publishes a mapping under our broker name
	other := defaultMaster().withName("Other").withAddr("127.0.0.1:11911")
	other.conn = 7
	theirs := map[string]TopicQueueMappingInfo{"S": {Topic: "S", Scope: DefaultMappingScope, Bname: b.name, TotalQueues: 4, Epoch: 2}}
	tw.registerWith(t, other, nil, withBaseTopic(16, "X"), theirs)
	if tw.registerWith(t, b.nextVersion(), nil, readOnlyTable(), ours) {
		t.Fatal("a table with mappings skipped after a mapping was rewritten")
	}
	tw.assertSameState(t)
}

func TestRoleChangeForcesTheFullPath(t *testing.T) {
	tw := newTwins(Config{})
	slave := defaultSlave() // prime slave, acting master on: read-only queues
	tw.register(t, slave, readOnlyTable())
	if writable(mustRoute(t, tw.skipping, "T").QueueDatas[0]) {
		t.Fatal("setup: prime slave queues writable")
	}
	// the group turns acting master off: the same table is now written writable
	if tw.register(t, slave.withActing(false).nextVersion(), readOnlyTable()) {
		t.Fatal("a prime slave losing acting master skipped its table")
	}
	tw.assertSameState(t)
	if !writable(mustRoute(t, tw.skipping, "T").QueueDatas[0]) {
		t.Fatal("queues still read-only")
	}
}

func TestNonPrimeSlaveSkipsWithoutTopicRecord(t *testing.T) {
	tw := newTwins(Config{})
	tw.register(t, defaultMaster(), readOnlyTable())
	slave := defaultSlave()
	tw.register(t, slave, readOnlyTable())
	if !tw.register(t, slave.nextVersion(), readOnlyTable()) {
		t.Fatal("a slave's new DataVersion with the same body was not skipped")
	}
	tw.assertSameState(t)
}

func TestTopicRoleMatchesStepTen(t *testing.T) {
	slave := defaultSlave().request()
	cases := []struct {
		name               string
		addrs              map[int64]string
		req                *RegisterBrokerRequest
		applies, wipeWrite bool
	}{
		{"master", map[int64]string{1: "x"}, defaultMaster().request(), true, false},
		{"slave behind a master", map[int64]string{0: "m", 1: slave.BrokerAddr}, slave, false, false},
		{"prime slave", map[int64]string{1: slave.BrokerAddr, 2: "s2"}, slave, true, true},
		{"own address under a smaller id goes at step 6", map[int64]string{0: slave.BrokerAddr}, slave, true, true},
		{"old broker is never prime", map[int64]string{}, defaultSlave().withoutActing().request(), false, false},
		{"acting master off", map[int64]string{}, defaultSlave().withActing(false).request(), true, false},
	}
	for _, tc := range cases {
		applies, wipeWrite := topicRole(tc.addrs, tc.req)
		if applies != tc.applies || wipeWrite != tc.wipeWrite {
			t.Errorf("%s: topicRole = %v, %v, want %v, %v", tc.name, applies, wipeWrite, tc.applies, tc.wipeWrite)
		}
	}
}

func (b brokerInfo) withoutActing() brokerInfo { b.acting = nil; return b }
