package route

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRegisterBoundsRefuseBeforeAnyChange: every bound of register_limits.go
// refuses with ErrLimitExceeded and changes nothing; the bounds themselves
// are accepted.
func TestRegisterBoundsRefuseBeforeAnyChange(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	manyTopics := make([]TopicConfig, 0, MaxTopicsPerRegistration+1)
	for i := range MaxTopicsPerRegistration + 1 {
		manyTopics = append(manyTopics, topicConfig(fmt.Sprintf("t%d", i), 1, 6))
	}
	cases := []struct {
		name   string
		change func(b *brokerInfo) []TopicConfig
	}{
		{"cluster name", func(b *brokerInfo) []TopicConfig { b.cluster = long(MaxNameLength + 1); return nil }},
		{"broker name", func(b *brokerInfo) []TopicConfig { b.name = long(MaxNameLength + 1); return nil }},
		{"zone name", func(b *brokerInfo) []TopicConfig { b.zone = long(MaxNameLength + 1); return nil }},
		{"address", func(b *brokerInfo) []TopicConfig { b.addr = long(MaxAddrLength + 1); return nil }},
		{"ha address", func(b *brokerInfo) []TopicConfig { b.ha = long(MaxAddrLength + 1); return nil }},
		{"state version", func(b *brokerInfo) []TopicConfig { b.dv.StateVersion = MaxStateVersion + 1; return nil }},
		{"topic name", func(*brokerInfo) []TopicConfig { return []TopicConfig{topicConfig(long(128), 1, 6)} }},
		{"topic count", func(*brokerInfo) []TopicConfig { return manyTopics }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := NewManager(Config{})
			b := defaultMaster()
			extra := tc.change(&b)
			_, _, err := m.RegisterBroker(b.request(append(withBaseTopic(8, "T"), extra...)...), testNow)
			if !errors.Is(err, ErrLimitExceeded) {
				t.Fatalf("err = %v, want ErrLimitExceeded", err)
			}
			if len(m.ClusterInfo().BrokerAddrTable) != 0 || len(m.AllTopicList().TopicList) != 0 {
				t.Fatal("a refused registration changed the tables")
			}
		})
	}
	m := NewManager(Config{})
	b := defaultMaster()
	b.name, b.cluster, b.addr = long(MaxNameLength), long(MaxNameLength), long(MaxAddrLength)
	b.dv.StateVersion = MaxStateVersion
	mustRegister(t, m, b.request(append(withBaseTopic(8, "T"), topicConfig(long(MaxTopicNameLength), 1, 6))...))
}

// TestBrokerNamesLeaveNoEpoch: queueDataEpoch[brokerName] was never
// deleted, so 60 registrations with 4 MiB broker names kept 240 MiB after
// every broker was gone (memory 8 -> 366 MB for good). Now a broker name
// without queue data has no epoch.
func TestBrokerNamesLeaveNoEpoch(t *testing.T) {
	m := NewManager(Config{})
	for i := range 60 {
		b := defaultMaster()
		b.name, b.addr, b.conn = fmt.Sprintf("broker-%d", i), fmt.Sprintf("10.0.0.%d:10911", i), ConnID(100+i)
		registerNormal(t, m, b, "T", fmt.Sprintf("own-%d", i))
	}
	if len(m.queueDataEpoch) != 60 {
		t.Fatalf("%d epochs for 60 broker names", len(m.queueDataEpoch))
	}
	for i := range 60 {
		m.ConnectionClosed(ConnID(100 + i))
	}
	if len(m.AllTopicList().TopicList) != 0 {
		t.Fatal("topics left after every broker left")
	}
	if len(m.queueDataEpoch) != 0 || len(m.brokerTopics) != 0 {
		t.Fatalf("%d epochs and %d topic indexes left for broker names that are gone", len(m.queueDataEpoch), len(m.brokerTopics))
	}
}

// TestEpochForgottenThenTopicsComeBack: after a broker name's epoch was
// deleted (a DELETE_TOPIC took its last topic), the broker's next periodic
// registration of the same body puts the topic back, as before.
func TestEpochForgottenThenTopicsComeBack(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	req := b.request(topicConfig("only", 4, 6), topicConfig("other", 4, 6))
	req.BodyFingerprint = 42
	mustRegister(t, m, req)
	m.DeleteTopic("only", "")
	m.DeleteTopic("other", "")
	if _, ok := m.queueDataEpoch[b.name]; ok {
		t.Fatal("epoch kept for a broker name without queue data")
	}
	mustRegister(t, m, req)
	if routeOf(m, "only") == nil || routeOf(m, "other") == nil {
		t.Fatal("the same body after the delete did not put its topics back")
	}
}

// TestExpiryWheelDropsReplacedEntries: a replaced live entry stayed in the
// expiry wheel until its original deadline, so 500,000 re-registrations
// that each replaced the entry kept 111 MB. Now the wheel holds at most
// twice the live entries plus expiryCompactSlack.
func TestExpiryWheelDropsReplacedEntries(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	for i := range 20_000 {
		b.dv.Counter = int64(i + 1) // a new DataVersion replaces the live entry
		mustRegister(t, m, b.request(topicConfig("A", 1, 6), topicConfig("B", 1, 6)))
	}
	if size := m.expiry.size(); size > 2*m.current.Load().live.len()+expiryCompactSlack {
		t.Fatalf("the expiry wheel holds %d entries for one live broker", size)
	}
	// the current entry still expires
	removed := m.ScanExpired(testNow.Add(DefaultHeartbeatTimeout + time.Second))
	if len(removed) != 1 {
		t.Fatalf("scan removed %d brokers, want the one", len(removed))
	}
}

// TestStaticMappingsLeaveWithTheirBroker: static-topic mappings were never
// removed; now they go when the broker name that wrote them leaves.
func TestStaticMappingsLeaveWithTheirBroker(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	req := b.request(withBaseTopic(8, "T")...)
	req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{
		"T": {Topic: "T", Bname: b.name, TotalQueues: 8, CurrIDMap: map[int32]int32{0: 0}},
	}
	mustRegister(t, m, req)
	if route := mustRoute(t, m, "T"); len(route.TopicQueueMappingByBroker) != 1 {
		t.Fatalf("route mappings %v", route.TopicQueueMappingByBroker)
	}
	m.ConnectionClosed(b.conn)
	if n := m.mappingCount(); n != 0 {
		t.Fatalf("%d static-topic mappings left after their broker left", n)
	}
	if len(m.brokerMappings) != 0 {
		t.Fatal("mapping index kept for a broker name that is gone")
	}
}

// TestRegistrationOnAClosedConnectionChangesNothing: the ConnOpen hook is
// asked under the lock.
func TestRegistrationOnAClosedConnectionChangesNothing(t *testing.T) {
	m := NewManager(Config{})
	req := defaultMaster().request(withBaseTopic(8, "T")...)
	req.ConnOpen = func() bool { return false }
	if _, _, err := m.RegisterBroker(req, testNow); !errors.Is(err, ErrConnectionGone) {
		t.Fatalf("err = %v, want ErrConnectionGone", err)
	}
	if len(m.ClusterInfo().BrokerAddrTable) != 0 {
		t.Fatal("a registration on a closed connection changed the tables")
	}
}

// TestInflatedLimit: 64 times the compressed size, at least 1 MiB, never
// past the frame limit.
func TestInflatedLimit(t *testing.T) {
	for _, tc := range []struct {
		compressed  int
		frame, want int64
	}{
		{100, 16 << 20, MinInflatedLimit},
		{100 << 10, 16 << 20, 6400 << 10},
		{1 << 20, 16 << 20, 16 << 20},
		{100 << 10, 1 << 20, 1 << 20},
	} {
		if got := InflatedLimit(tc.compressed, tc.frame); got != tc.want {
			t.Errorf("InflatedLimit(%d, %d) = %d, want %d", tc.compressed, tc.frame, got, tc.want)
		}
	}
}

// TestCompressedBodyWithinItsLimit: a body that inflates past the limit it
// is given fails with ErrRouteBodyTooLarge; one topic count past the bound
// fails before any topic is read.
func TestCompressedBodyWithinItsLimit(t *testing.T) {
	body := &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{TopicConfigTable: map[string]TopicConfig{}}}
	for i := range 2000 {
		name := fmt.Sprintf("topic-%04d", i)
		body.TopicConfigSerializeWrapper.TopicConfigTable[name] = NewTopicConfig(name)
	}
	raw, err := EncodeCompressedRegisterBrokerBody(body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeCompressedRegisterBrokerBodyWithin(raw, VersionV5_0_0, 10_000); !errors.Is(err, ErrRouteBodyTooLarge) {
		t.Fatalf("err = %v, want ErrRouteBodyTooLarge", err)
	}
	if got, err := DecodeCompressedRegisterBrokerBodyWithin(raw, VersionV5_0_0, InflatedLimit(len(raw), 16<<20)); err != nil ||
		len(got.TopicConfigSerializeWrapper.TopicConfigTable) != 2000 {
		t.Fatalf("within its limit: %v", err)
	}
}

// CheckNameField and CheckAddrField are the registration's bounds under the
// field names of other requests (the controller's).
func TestNameAndAddrFieldsAtTheirBounds(t *testing.T) {
	if err := CheckNameField("brokerName", strings.Repeat("n", MaxNameLength)); err != nil {
		t.Fatal(err)
	}
	if err := CheckNameField("clusterName", strings.Repeat("n", MaxNameLength+1)); !errors.Is(err, ErrLimitExceeded) ||
		!strings.Contains(err.Error(), "clusterName") {
		t.Fatalf("a name one past the bound: %v", err)
	}
	if err := CheckAddrField("brokerAddress", strings.Repeat("a", MaxAddrLength)); err != nil {
		t.Fatal(err)
	}
	if err := CheckAddrField("brokerAddress", strings.Repeat("a", MaxAddrLength+1)); !errors.Is(err, ErrLimitExceeded) ||
		!strings.Contains(err.Error(), "brokerAddress") {
		t.Fatalf("an address one past the bound: %v", err)
	}
}
