package route

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// Go versions of the Java test cases of protocol.md 9.10-9.14, one test per
// Java case, named after it, asserting the same outcome (behaviour, not
// code). Cases that only assert "not null" in Java assert content here.

// setupRouteInfoManagerTest is the setup of RouteInfoManagerTest (9.11):
// default-broker id 1234 (the smallest id, acting master given as false: a
// prime slave, so its topics are routed).
func setupRouteInfoManagerTest(t *testing.T) (*Manager, brokerInfo) {
	m := NewManager(Config{})
	b := brokerInfo{cluster: "default-cluster", name: "default-broker", addr: "127.0.0.1:10911", id: 1234,
		acting: boolPtr(false), dv: DataVersion{Counter: 10, Timestamp: 100}, conn: 1}
	mustRegister(t, m, b.request(topicConfig("unit-test0", 8, 6), topicConfig("unit-test1", 8, 6)))
	return m, b
}

func TestRouteInfoManagerTest_testGetAllClusterInfo(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	info := m.ClusterInfo()
	encoded := EncodeClusterInfo(nil, &info)
	if !bytes.Contains(encoded, []byte(`"default-cluster":["default-broker"]`)) ||
		!bytes.Contains(encoded, []byte(`{1234:"127.0.0.1:10911"}`)) {
		t.Fatalf("cluster info = %s", encoded)
	}
}

func TestRouteInfoManagerTest_testQueryBrokerTopicConfig(t *testing.T) {
	m, b := setupRouteInfoManagerTest(t)
	want := DataVersion{Counter: 10, Timestamp: 100}
	if _, stored := m.QueryDataVersion(b.cluster, b.addr, &want, testNow); stored == nil || *stored != want {
		t.Fatalf("stored version = %v, want %v", stored, want)
	}
	other := b
	other.cluster = "default-cluster-1"
	other.dv = DataVersion{Counter: 20, Timestamp: 200}
	mustRegister(t, m, other.request(topicConfig("unit-test0", 8, 6), topicConfig("unit-test1", 8, 6)))
	if _, stored := m.QueryDataVersion(b.cluster, b.addr, nil, testNow); stored == nil || *stored != want {
		t.Fatalf("first entry changed to %v", stored)
	}
	if _, stored := m.QueryDataVersion(other.cluster, other.addr, nil, testNow); stored == nil || *stored != other.dv {
		t.Fatalf("second entry = %v, want %v", stored, other.dv)
	}
	m.UnregisterBrokers([]UnregisterRequest{other.unregisterRequest()})
	if _, stored := m.QueryDataVersion(b.cluster, b.addr, nil, testNow); stored == nil || *stored != want {
		t.Fatalf("first entry gone or changed after unregistering the second: %v", stored)
	}
	if _, stored := m.QueryDataVersion(other.cluster, other.addr, nil, testNow); stored != nil {
		t.Fatalf("second entry still there: %v", stored)
	}
}

func TestRouteInfoManagerTest_testGetAllTopicList(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if got := m.AllTopicList().TopicList; !slices.Equal(got, []string{"unit-test0", "unit-test1"}) {
		t.Fatalf("all topics = %v", got)
	}
}

func TestRouteInfoManagerTest_testRegisterBroker(t *testing.T) {
	m, b := setupRouteInfoManagerTest(t)
	if _, _, err := m.RegisterBroker(b.request(topicConfig("unit-test0", 8, 6), topicConfig("unit-test1", 8, 6)), testNow); err != nil {
		t.Fatalf("re-registration failed: %v", err)
	}
}

// singleTopicManager gives broker-a one topic at perm, as the Java perm tests
// do by writing the table directly.
func singleTopicManager(t *testing.T, brokerName string, perm int32) *Manager {
	m := NewManager(Config{})
	mustRegister(t, m, brokerInfo{cluster: "cluster", name: brokerName, addr: "10.0.0.1:10911"}.request())
	if !m.RegisterTopic("topic-0", []QueueData{{BrokerName: brokerName, Perm: perm}}) {
		t.Fatal("register topic refused")
	}
	return m
}

func TestRouteInfoManagerTest_testWipeWritePermOfBrokerByLock(t *testing.T) {
	checkPermChange(t, "broker-a", PermRead|PermWrite, (*Manager).WipeWritePerm, PermRead)
}

func TestRouteInfoManagerTest_testPickupTopicRouteData(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if route := routeOf(m, "not-a-topic"); route != nil {
		t.Fatalf("route for an unknown topic: %+v", route)
	}
}

func TestRouteInfoManagerTest_testGetSystemTopicList(t *testing.T) {
	m, b := setupRouteInfoManagerTest(t)
	list := m.SystemTopicList()
	if !slices.Equal(list.TopicList, []string{"default-broker", "default-cluster"}) || list.BrokerAddr != b.addr {
		t.Fatalf("system topics = %+v", list)
	}
}

func TestRouteInfoManagerTest_testGetTopicsByCluster(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if got := m.TopicsByCluster("default-cluster").TopicList; !slices.Equal(got, []string{"unit-test0", "unit-test1"}) {
		t.Fatalf("topics by cluster = %v", got)
	}
}

func TestRouteInfoManagerTest_testGetUnitTopics(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if got := m.UnitTopicList().TopicList; len(got) != 0 {
		t.Fatalf("unit topics = %v, want none", got)
	}
}

func TestRouteInfoManagerTest_testGetHasUnitSubTopicList(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if got := m.HasUnitSubTopicList().TopicList; len(got) != 0 {
		t.Fatalf("has-unit-sub topics = %v, want none", got)
	}
}

func TestRouteInfoManagerTest_testGetHasUnitSubUnUnitTopicList(t *testing.T) {
	m, _ := setupRouteInfoManagerTest(t)
	if got := m.HasUnitSubUnUnitTopicList().TopicList; len(got) != 0 {
		t.Fatalf("has-unit-sub non-unit topics = %v, want none", got)
	}
}

func TestRouteInfoManagerTest_testAddWritePermOfBrokerByLock(t *testing.T) {
	checkPermChange(t, "broker-a", PermRead, (*Manager).AddWritePerm, PermRead|PermWrite)
}

func TestRouteInfoManagerBrokerPermTest_testAddWritePermOfBrokerByLock(t *testing.T) {
	checkPermChange(t, "broker-0", PermRead, (*Manager).AddWritePerm, PermRead|PermWrite)
}

// An already read-only topic is counted too.
func TestRouteInfoManagerBrokerPermTest_testWipeWritePermOfBrokerByLock(t *testing.T) {
	checkPermChange(t, "broker-0", PermRead, (*Manager).WipeWritePerm, PermRead)
}

// registerTestCluster registers brokers <prefix>-0..n-1, each with members
// ids 0..members-1 at cluster-<broker>:<id>, all carrying topics topic-0..
// (RouteInfoManagerTestBase.registerCluster).
func registerTestCluster(t *testing.T, m *Manager, cluster string, brokers, members, topics int) []string {
	configs := make([]TopicConfig, topics)
	for i := range configs {
		configs[i] = topicConfig(fmt.Sprintf("topic-%d", i), 8, 6)
	}
	var names []string
	for b := 0; b < brokers; b++ {
		name := fmt.Sprintf("broker-%d", b)
		names = append(names, name)
		for id := 0; id < members; id++ {
			addr := fmt.Sprintf("%s-%s:%d", cluster, name, id)
			mustRegister(t, m, brokerInfo{cluster: cluster, name: name, addr: addr, ha: addr, id: int64(id),
				acting: boolPtr(false), conn: ConnID(b*members + id + 1)}.request(configs...))
		}
	}
	return names
}

func TestRouteInfoManagerBrokerRegisterTest_testMasterChangeFromSlave(t *testing.T) {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	groupOf := func() BrokerData {
		for _, bd := range mustRoute(t, m, "topic-0").BrokerDatas {
			if bd.BrokerName == "broker-0" {
				return bd
			}
		}
		t.Fatal("broker-0 missing from the route")
		return BrokerData{}
	}
	if got := groupOf().BrokerAddrs[MasterID]; got != "cluster-broker-0:0" {
		t.Fatalf("master = %q", got)
	}
	addr := "cluster-broker-0:1"
	mustRegister(t, m, brokerInfo{cluster: "cluster", name: "broker-0", addr: addr, ha: addr, id: 0,
		acting: boolPtr(false), conn: 99}.request(topicConfig("topic-0", 8, 6), topicConfig("topic-1", 8, 6)))
	if got := groupOf().BrokerAddrs[MasterID]; got != addr {
		t.Fatalf("master after the switch = %q, want %q", got, addr)
	}
}

func TestRouteInfoManagerBrokerRegisterTest_testUnregisterBroker(t *testing.T) {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	m.UnregisterBrokers([]UnregisterRequest{{ClusterName: "cluster", BrokerAddr: "cluster-broker-0:2",
		BrokerName: "broker-0", BrokerID: 2, Generation: UnfencedGeneration}})
	for _, bd := range mustRoute(t, m, "topic-0").BrokerDatas {
		if _, ok := bd.BrokerAddrs[2]; bd.BrokerName == "broker-0" && ok {
			t.Fatalf("broker-0 still has id 2: %v", bd.BrokerAddrs)
		}
	}
}

func topicNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("topic-%d", i)
	}
	slices.Sort(names)
	return names
}

func TestRouteInfoManagerStaticRegisterTest_testGetAllClusterInfo(t *testing.T) {
	m := NewManager(Config{})
	names := registerTestCluster(t, m, "cluster", 3, 3, 10)
	info := m.ClusterInfo()
	if len(info.ClusterAddrTable) != 1 || !slices.Equal(info.ClusterAddrTable["cluster"], names) {
		t.Fatalf("clusters = %v", info.ClusterAddrTable)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testGetAllTopicList(t *testing.T) {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	if got := m.AllTopicList().TopicList; !slices.Equal(got, topicNames(10)) {
		t.Fatalf("all topics = %v", got)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testGetTopicsByCluster(t *testing.T) {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	if got := m.TopicsByCluster("cluster").TopicList; !slices.Equal(got, topicNames(10)) {
		t.Fatalf("topics of cluster = %v", got)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testPickupTopicRouteData(t *testing.T) {
	m := NewManager(Config{})
	names := registerTestCluster(t, m, "cluster", 3, 3, 10)
	route := mustRoute(t, m, "topic-0")
	if len(route.BrokerDatas) != 3 {
		t.Fatalf("broker datas = %d, want 3", len(route.BrokerDatas))
	}
	for _, bd := range route.BrokerDatas {
		for id := int64(0); id < 3; id++ {
			if want := fmt.Sprintf("cluster-%s:%d", bd.BrokerName, id); bd.BrokerAddrs[id] != want {
				t.Fatalf("%s id %d = %q, want %q", bd.BrokerName, id, bd.BrokerAddrs[id], want)
			}
		}
	}
	var qdNames []string
	for _, qd := range route.QueueDatas {
		if qd.ReadQueueNums != 8 || qd.WriteQueueNums != 8 || qd.Perm != 6 || qd.TopicSysFlag != 0 {
			t.Fatalf("queue data = %+v", qd)
		}
		qdNames = append(qdNames, qd.BrokerName)
	}
	if !slices.Equal(qdNames, names) {
		t.Fatalf("queue data broker names = %v, want %v", qdNames, names)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testDeleteTopic(t *testing.T) {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	m.DeleteTopic("topic-0", "")
	if route := routeOf(m, "topic-0"); route != nil {
		t.Fatalf("route after delete: %+v", route)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testGetSystemTopicList(t *testing.T) {
	m := NewManager(Config{})
	names := registerTestCluster(t, m, "cluster", 3, 3, 10)
	list := m.SystemTopicList()
	if want := append(slices.Clone(names), "cluster"); !slices.Equal(list.TopicList, want) {
		t.Fatalf("system topics = %v, want %v", list.TopicList, want)
	}
	// Java's brokerAddrTable iterates broker-2, broker-0, broker-1 (checked on
	// a JVM), so its pick is broker-2's master; ours is the same.
	if list.BrokerAddr != "cluster-broker-2:0" {
		t.Fatalf("broker addr = %q", list.BrokerAddr)
	}
}

// unitCluster is the 3x3x10 cluster plus one unit topic and one
// has-unit-sub topic, so the unit lists have something to find.
func unitCluster(t *testing.T) *Manager {
	m := NewManager(Config{})
	registerTestCluster(t, m, "cluster", 3, 3, 10)
	m.RegisterTopic("unit", []QueueData{{BrokerName: "broker-0", Perm: 6, TopicSysFlag: FlagUnit | FlagUnitSub}})
	m.RegisterTopic("unit-sub", []QueueData{{BrokerName: "broker-1", Perm: 6, TopicSysFlag: FlagUnitSub}})
	return m
}

func TestRouteInfoManagerStaticRegisterTest_testGetUnitTopics(t *testing.T) {
	if got := unitCluster(t).UnitTopicList().TopicList; !slices.Equal(got, []string{"unit"}) {
		t.Fatalf("unit topics = %v", got)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testGetHasUnitSubTopicList(t *testing.T) {
	if got := unitCluster(t).HasUnitSubTopicList().TopicList; !slices.Equal(got, []string{"unit", "unit-sub"}) {
		t.Fatalf("has-unit-sub topics = %v", got)
	}
}

func TestRouteInfoManagerStaticRegisterTest_testGetHasUnitSubUnUnitTopicList(t *testing.T) {
	if got := unitCluster(t).HasUnitSubUnUnitTopicList().TopicList; !slices.Equal(got, []string{"unit-sub"}) {
		t.Fatalf("has-unit-sub non-unit topics = %v", got)
	}
}

// BrokerHousekeepingServiceTest (9.10): close, error and idle events of a
// connection that registered nothing change nothing and do not fail.
func TestBrokerHousekeepingServiceTest_testOnChannelClose(t *testing.T) {
	m, b := setupRouteInfoManagerTest(t)
	if removed := m.ConnectionClosed(b.conn + 100); removed != nil {
		t.Fatalf("unknown connection removed %v", removed)
	}
	mustRoute(t, m, "unit-test0")
}

func TestBrokerHousekeepingServiceTest_testOnChannelException(t *testing.T) {
	m := NewManager(Config{})
	if removed := m.ConnectionClosed(0); removed != nil {
		t.Fatalf("zero connection removed %v", removed)
	}
}

func TestBrokerHousekeepingServiceTest_testOnChannelIdle(t *testing.T) {
	m, b := setupRouteInfoManagerTest(t)
	m.ConnectionClosed(b.conn + 1)
	if len(m.ClusterInfo().BrokerAddrTable) != 1 {
		t.Fatal("idle event of another connection removed the broker")
	}
}

// checkPermChange gives brokerName one topic at perm, applies change and
// expects a count of 1 and wantPerm.
func checkPermChange(t *testing.T, brokerName string, perm int32, change func(*Manager, string) int, wantPerm int32) {
	t.Helper()
	m := singleTopicManager(t, brokerName, perm)
	if n := change(m, brokerName); n != 1 {
		t.Fatalf("count = %d, want 1", n)
	}
	if got := mustRoute(t, m, "topic-0").QueueDatas[0].Perm; got != wantPerm {
		t.Fatalf("perm = %d, want %d", got, wantPerm)
	}
}
