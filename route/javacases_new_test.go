package route

import (
	"slices"
	"testing"
)

// Go versions of RouteInfoManagerNewTest (protocol.md 9.15): acting master
// supported; every registration also carries baseTopic. Each test has its
// own settings (quirk Q33: the Java class shares one across tests).

func newTestManager() *Manager { return NewManager(Config{SupportActingMaster: true}) }

func defaultMaster() brokerInfo {
	return brokerInfo{cluster: "Default_Cluster", name: "Default_Broker", addr: "127.0.0.1:10911",
		ha: "127.0.0.1:20911", id: 0, acting: boolPtr(true), dv: DataVersion{Counter: 1, Timestamp: 100}, conn: 1}
}

func defaultSlave() brokerInfo {
	b := defaultMaster()
	b.id, b.addr, b.ha, b.conn = 1, "127.0.0.1:30911", "127.0.0.1:40911", 2
	return b
}

func (b brokerInfo) withActing(on bool) brokerInfo { b.acting = boolPtr(on); return b }
func (b brokerInfo) withName(name string) brokerInfo {
	b.name = name
	return b
}
func (b brokerInfo) nextVersion() brokerInfo { b.dv.Counter++; return b }

// registerNormal registers b with baseTopic and the given 8-queue topics
// (registerBrokerWithNormalTopic).
func registerNormal(t *testing.T, m *Manager, b brokerInfo, topics ...string) RegisterBrokerResult {
	t.Helper()
	return mustRegister(t, m, b.request(withBaseTopic(16, topics...)...))
}

func withBaseTopic(baseQueues int32, topics ...string) []TopicConfig {
	configs := []TopicConfig{topicConfig("baseTopic", baseQueues, 6)}
	for _, topic := range topics {
		queues := int32(8)
		if baseQueues == 1 {
			queues = 1 // global order topics
		}
		configs = append(configs, topicConfig(topic, queues, 6))
	}
	return configs
}

func unregister(m *Manager, brokers ...brokerInfo) {
	reqs := make([]UnregisterRequest, len(brokers))
	for i, b := range brokers {
		reqs[i] = b.unregisterRequest()
	}
	m.UnregisterBrokers(reqs)
}

func writable(qd QueueData) bool { return qd.Perm&PermWrite != 0 }

func TestRouteInfoManagerNewTest_getAllClusterInfo(t *testing.T) {
	m := newTestManager()
	other := defaultMaster().withName("AnotherBroker")
	other.cluster, other.addr = "AnotherCluster", "127.0.0.1:10912"
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, other, "TestTopic1")
	info := m.ClusterInfo()
	if len(info.ClusterAddrTable) != 2 || info.ClusterAddrTable["Default_Cluster"][0] != "Default_Broker" ||
		info.ClusterAddrTable["AnotherCluster"][0] != "AnotherBroker" {
		t.Fatalf("clusters = %v", info.ClusterAddrTable)
	}
	if info.BrokerAddrTable["Default_Broker"].BrokerAddrs[0] != "127.0.0.1:10911" ||
		info.BrokerAddrTable["AnotherBroker"].BrokerAddrs[0] != "127.0.0.1:10912" {
		t.Fatalf("brokers = %v", info.BrokerAddrTable)
	}
}

func TestRouteInfoManagerNewTest_deleteTopic(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	m.DeleteTopic("TestTopic", "")
	if routeOf(m, "TestTopic") != nil {
		t.Fatal("route left after delete")
	}
	other := defaultMaster().withName("AnotherBroker")
	other.cluster, other.addr = "AnotherCluster", "127.0.0.1:10912"
	registerNormal(t, m, defaultMaster().nextVersion(), "TestTopic")
	registerNormal(t, m, other, "TestTopic")
	m.DeleteTopic("TestTopic", "Default_Cluster")
	route := mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerName != "AnotherBroker" {
		t.Fatalf("after cluster delete: %+v", route.BrokerDatas)
	}
}

func TestRouteInfoManagerNewTest_getAllTopicList(t *testing.T) {
	m := newTestManager()
	if got := m.AllTopicList().TopicList; len(got) != 0 {
		t.Fatalf("topics of an empty server = %v", got)
	}
	registerNormal(t, m, defaultMaster(), "TestTopic", "TestTopic1", "TestTopic2")
	want := []string{"TestTopic", "TestTopic1", "TestTopic2", "baseTopic"}
	if got := m.AllTopicList().TopicList; !slices.Equal(got, want) {
		t.Fatalf("topics = %v, want %v", got, want)
	}
}

func TestRouteInfoManagerNewTest_registerBroker(t *testing.T) {
	m := newTestManager()
	if result := registerNormal(t, m, defaultMaster(), "TestTopic"); result != (RegisterBrokerResult{}) {
		t.Fatalf("master result = %+v, want empty", result)
	}
	result := registerNormal(t, m, defaultSlave(), "TestTopic")
	if result.HAServerAddr != "127.0.0.1:20911" || result.MasterAddr != "127.0.0.1:10911" {
		t.Fatalf("slave result = %+v", result)
	}
}

func TestRouteInfoManagerNewTest_unregisterBroker(t *testing.T) {
	for _, queued := range []bool{false, true} {
		m := newTestManager()
		registerNormal(t, m, defaultMaster(), "TestTopic", "TestTopic1", "TestTopic2")
		if queued {
			// the daemon's queue hands over a batch with the captured generation
			b := defaultMaster()
			req := b.unregisterRequest()
			req.Generation = m.Generation(b.cluster, b.addr)
			m.UnregisterBrokers([]UnregisterRequest{req})
		} else {
			unregister(m, defaultMaster())
		}
		for _, topic := range []string{"TestTopic", "TestTopic1", "TestTopic2"} {
			if routeOf(m, topic) != nil {
				t.Fatalf("queued=%v: route of %s left", queued, topic)
			}
		}
	}
}

func TestRouteInfoManagerNewTest_registerSlaveBroker(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	addrs := mustRoute(t, m, "TestTopic").BrokerDatas[0].BrokerAddrs
	if addrs[0] != "127.0.0.1:10911" || addrs[1] != "127.0.0.1:30911" || len(addrs) != 2 {
		t.Fatalf("addrs = %v", addrs)
	}
}

func TestRouteInfoManagerNewTest_createNewTopic(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	registerNormal(t, m, defaultMaster(), "TestTopic", "TestTopic1") // same version, new topic
	addrs := mustRoute(t, m, "TestTopic1").BrokerDatas[0].BrokerAddrs
	if addrs[0] != "127.0.0.1:10911" || addrs[1] != "127.0.0.1:30911" {
		t.Fatalf("addrs = %v", addrs)
	}
}

// switchBrokerRole is shared by switchBrokerRole and
// switchBrokerRole_ChannelDestroy, which differ in how the master goes.
func switchBrokerRole(t *testing.T, removeMaster func(m *Manager, master brokerInfo)) {
	m := newTestManager()
	master, slave := defaultMaster().withActing(false), defaultSlave().withActing(false)
	registerNormal(t, m, master, "TestTopic")
	registerNormal(t, m, slave, "TestTopic")
	removeMaster(m, master)
	addrs := mustRoute(t, m, "TestTopic").BrokerDatas[0].BrokerAddrs
	if len(addrs) != 1 || addrs[1] != slave.addr {
		t.Fatalf("after master down: %v", addrs)
	}
	slave.id = 0
	registerNormal(t, m, slave.nextVersion(), "TestTopic")
	addrs = mustRoute(t, m, "TestTopic").BrokerDatas[0].BrokerAddrs
	if len(addrs) != 1 || addrs[0] != slave.addr {
		t.Fatalf("after the slave took over: %v", addrs)
	}
	master.id = 1
	registerNormal(t, m, master.nextVersion(), "TestTopic")
	addrs = mustRoute(t, m, "TestTopic").BrokerDatas[0].BrokerAddrs
	if len(addrs) != 2 || addrs[0] != slave.addr || addrs[1] != master.addr {
		t.Fatalf("after the old master came back as slave: %v", addrs)
	}
}

func TestRouteInfoManagerNewTest_switchBrokerRole(t *testing.T) {
	switchBrokerRole(t, func(m *Manager, master brokerInfo) { unregister(m, master) })
}

func TestRouteInfoManagerNewTest_switchBrokerRole_ChannelDestroy(t *testing.T) {
	switchBrokerRole(t, func(m *Manager, master brokerInfo) {
		if removed := m.ConnectionClosed(master.conn); len(removed) != 1 {
			t.Fatalf("closing the master's connection removed %v", removed)
		}
	})
}

func TestRouteInfoManagerNewTest_unRegisterSlaveBroker(t *testing.T) {
	m := newTestManager()
	for round := 0; round < 2; round++ { // direct, then as the daemon's queue would
		registerNormal(t, m, defaultMaster(), "TestTopic")
		registerNormal(t, m, defaultSlave(), "TestTopic")
		unregister(m, defaultSlave())
		route := mustRoute(t, m, "TestTopic")
		if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != "127.0.0.1:10911" {
			t.Fatalf("round %d: %+v", round, route.BrokerDatas)
		}
	}
}

func TestRouteInfoManagerNewTest_unRegisterMasterBroker(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	unregister(m, defaultMaster())
	route := mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != "127.0.0.1:30911" {
		t.Fatalf("broker datas = %+v", route.BrokerDatas)
	}
	if len(route.QueueDatas) != 1 || route.QueueDatas[0].Perm != PermRead {
		t.Fatalf("queue datas = %+v", route.QueueDatas)
	}
}

func TestRouteInfoManagerNewTest_unRegisterMasterBrokerOldVersion(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster().withActing(false), "TestTopic")
	registerNormal(t, m, defaultSlave().withActing(false), "TestTopic")
	unregister(m, defaultMaster())
	route := mustRoute(t, m, "TestTopic")
	if _, ok := route.BrokerDatas[0].BrokerAddrs[0]; ok || len(route.BrokerDatas) != 1 {
		t.Fatalf("broker datas = %+v", route.BrokerDatas)
	}
	if len(route.QueueDatas) != 1 || route.QueueDatas[0].Perm != PermRead|PermWrite {
		t.Fatalf("queue datas = %+v", route.QueueDatas)
	}
}

func TestRouteInfoManagerNewTest_submitMultiUnRegisterRequests(t *testing.T) {
	m := newTestManager()
	master2 := defaultMaster().withName("Default_Broker1")
	master2.addr = "127.0.0.1:109119"
	registerNormal(t, m, defaultMaster(), "TestTopic1")
	registerNormal(t, m, master2, "TestTopic2")
	unregister(m, defaultMaster(), master2) // one batch
	if routeOf(m, "TestTopic1") != nil || routeOf(m, "TestTopic2") != nil {
		t.Fatal("routes left after the batch")
	}
}

func TestRouteInfoManagerNewTest_isBrokerTopicConfigChanged(t *testing.T) {
	m := newTestManager()
	b := defaultMaster()
	registerNormal(t, m, b, "TestTopic")
	same := b.dv
	if changed, _ := m.QueryDataVersion(b.cluster, b.addr, &same, testNow); changed {
		t.Fatal("same version reported as changed")
	}
	for _, other := range []DataVersion{{Counter: 1, Timestamp: 101}, {Counter: 2, Timestamp: 100}} {
		if changed, _ := m.QueryDataVersion(b.cluster, b.addr, &other, testNow); !changed {
			t.Fatalf("%+v reported as unchanged", other)
		}
	}
}

func TestRouteInfoManagerNewTest_isTopicConfigChanged(t *testing.T) {
	// Java's isTopicConfigChanged is the per-topic rule of step 11.2; seen
	// from outside: before registration everything is new, after it a topic
	// registered under the same version keeps its state (a wiped perm
	// survives), and an unknown topic in the same version is added.
	m := newTestManager()
	b := defaultMaster()
	registerNormal(t, m, b, "TestTopic")
	m.WipeWritePerm(b.name)
	registerNormal(t, m, b, "TestTopic", "NewTopic")
	if writable(mustRoute(t, m, "TestTopic").QueueDatas[0]) {
		t.Fatal("unchanged topic was rewritten")
	}
	if !writable(mustRoute(t, m, "NewTopic").QueueDatas[0]) {
		t.Fatal("new topic in the same version not added")
	}
}

func TestRouteInfoManagerNewTest_queryBrokerTopicConfig(t *testing.T) {
	m := newTestManager()
	b := defaultMaster()
	registerNormal(t, m, b, "TestTopic")
	if _, stored := m.QueryDataVersion(b.cluster, b.addr, nil, testNow); stored == nil || *stored != b.dv {
		t.Fatalf("stored = %v, want %v", stored, b.dv)
	}
}

func TestRouteInfoManagerNewTest_wipeWritePermOfBrokerByLock(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	m.WipeWritePerm("Default_Broker")
	if perm := mustRoute(t, m, "TestTopic").QueueDatas[0].Perm; perm != PermRead {
		t.Fatalf("perm = %d, want 4", perm)
	}
}

func TestRouteInfoManagerNewTest_pickupTopicRouteData(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	route := mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerAddrs[0] != "127.0.0.1:10911" {
		t.Fatalf("broker datas = %+v", route.BrokerDatas)
	}
	if qd := route.QueueDatas[0]; len(route.QueueDatas) != 1 || qd.ReadQueueNums != 8 || qd.WriteQueueNums != 8 || qd.Perm != 6 {
		t.Fatalf("queue datas = %+v", route.QueueDatas)
	}
	other := defaultMaster().withName("Default_Broker_2")
	other.addr = "127.0.0.1:10912"
	registerNormal(t, m, other, "TestTopic")
	route = mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas) != 2 || len(route.QueueDatas) != 2 {
		t.Fatalf("two groups: %d broker datas, %d queue datas", len(route.BrokerDatas), len(route.QueueDatas))
	}
}

func TestRouteInfoManagerNewTest_pickupTopicRouteDataWithSlave(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	route := mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas[0].BrokerAddrs) != 2 || !writable(route.QueueDatas[0]) {
		t.Fatalf("master+slave: %+v", route)
	}
	unregister(m, defaultMaster())
	route = mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas[0].BrokerAddrs) != 1 || writable(route.QueueDatas[0]) {
		t.Fatalf("slave only: %+v", route)
	}
	registerNormal(t, m, defaultMaster(), "TestTopic")
	route = mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas[0].BrokerAddrs) != 2 || !writable(route.QueueDatas[0]) {
		t.Fatalf("master back: %+v", route)
	}
}

func TestRouteInfoManagerNewTest_scanNotActiveBroker(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	if removed := m.ScanExpired(testNow); removed != nil {
		t.Fatalf("fresh broker expired: %v", removed)
	}
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(30000)
	registerNormal(t, m, b, "TestTopic")
	removed := m.ScanExpired(testNow.Add(30001 * 1e6))
	if len(removed) != 1 || removed[0].BrokerAddr != b.addr || removed[0].Conn != b.conn {
		t.Fatalf("expired = %+v", removed)
	}
	if routeOf(m, "TestTopic") != nil {
		t.Fatal("route of an expired broker left")
	}
}

// orderTopicCase runs pickupPartitionOrderTopicRouteData (queues 8) and
// pickupGlobalOrderTopicRouteData (queues 1), cases 1 and 2.
func orderTopicCases12(t *testing.T, m *Manager, baseQueues int32, topic string) {
	t.Helper()
	register := func(b brokerInfo) { mustRegister(t, m, b.request(withBaseTopic(baseQueues, topic)...)) }
	check := func(label string) {
		t.Helper()
		route := mustRoute(t, m, topic)
		addrs := route.BrokerDatas[0].BrokerAddrs
		if len(addrs) != 1 || addrs[MasterID] != defaultSlave().addr || writable(route.QueueDatas[0]) {
			t.Fatalf("%s: addrs %v perm %d", label, addrs, route.QueueDatas[0].Perm)
		}
	}
	register(defaultSlave())
	check("case 1, slave only")
	unregister(m, defaultSlave())
	register(defaultSlave())
	register(defaultMaster())
	unregister(m, defaultMaster())
	check("case 2, master gone")
	unregister(m, defaultSlave())
}

func TestRouteInfoManagerNewTest_pickupPartitionOrderTopicRouteData(t *testing.T) {
	m := newTestManager()
	const topic = "PartitionOrderTopicTest"
	orderTopicCases12(t, m, 16, topic)
	register := func(b brokerInfo) { mustRegister(t, m, b.request(withBaseTopic(16, topic)...)) }
	register(defaultSlave())
	register(defaultMaster())
	master1, slave1 := defaultMaster().withName("Default_Broker_ANOTHER"), defaultSlave().withName("Default_Broker_ANOTHER")
	register(master1)
	register(slave1)
	if route := mustRoute(t, m, topic); len(route.BrokerDatas) != 2 || len(route.QueueDatas) != 2 {
		t.Fatalf("two groups: %+v", route)
	}
	unregister(m, defaultMaster())
	route := mustRoute(t, m, topic)
	if len(route.BrokerDatas) != 2 || len(route.QueueDatas) != 2 {
		t.Fatalf("after unregistering one master: %+v", route)
	}
	// The other group shares the addresses (as in the Java test) but the
	// unregistration names Default_Broker, so only that group lost its
	// master: it shows its slave as acting master, the other keeps both.
	for _, bd := range route.BrokerDatas {
		switch len(bd.BrokerAddrs) {
		case 1:
			if bd.BrokerAddrs[MasterID] != defaultSlave().addr {
				t.Fatalf("%s: %v", bd.BrokerName, bd.BrokerAddrs)
			}
		case 2:
			if bd.BrokerAddrs[MasterID] != master1.addr || bd.BrokerAddrs[1] != slave1.addr {
				t.Fatalf("%s: %v", bd.BrokerName, bd.BrokerAddrs)
			}
		default:
			t.Fatalf("%s: %v", bd.BrokerName, bd.BrokerAddrs)
		}
	}
}

func TestRouteInfoManagerNewTest_pickupGlobalOrderTopicRouteData(t *testing.T) {
	orderTopicCases12(t, newTestManager(), 1, "GlobalOrderTopicTest")
}

func TestRouteInfoManagerNewTest_registerOnlySlaveBroker(t *testing.T) {
	m := newTestManager()
	perm := func() QueueData { return mustRoute(t, m, "TestTopic").QueueDatas[0] }
	registerNormal(t, m, defaultSlave(), "TestTopic")
	if writable(perm()) {
		t.Fatal("slave alone is writable")
	}
	unregister(m, defaultSlave())
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	if !writable(perm()) {
		t.Fatal("master+slave not writable")
	}
	unregister(m, defaultMaster())
	if writable(perm()) {
		t.Fatal("writable after the master left")
	}
	registerNormal(t, m, defaultMaster(), "TestTopic")
	if !writable(perm()) {
		t.Fatal("not writable after the master came back")
	}
}

func TestRouteInfoManagerNewTest_onChannelDestroy(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic")
	m.ConnectionClosed(defaultMaster().conn)
	if routeOf(m, "TestTopic") != nil {
		t.Fatal("route left after the connection closed")
	}
	registerNormal(t, m, defaultMaster(), "TestTopic")
	registerNormal(t, m, defaultSlave(), "TestTopic")
	m.ConnectionClosed(defaultMaster().conn)
	addrs := mustRoute(t, m, "TestTopic").BrokerDatas[0].BrokerAddrs
	if _, hasSlave := addrs[1]; !hasSlave || len(addrs) != 1 {
		// with acting master on the route shows the slave as id 0; the
		// table keeps it under id 1
		if addrs[MasterID] != defaultSlave().addr || len(addrs) != 1 {
			t.Fatalf("after the master's connection closed: %v", addrs)
		}
	}
	if got := m.BrokerMemberGroup("Default_Cluster", "Default_Broker"); len(got) != 1 || got[1] != defaultSlave().addr {
		t.Fatalf("group = %v, want only id 1", got)
	}
	m.ConnectionClosed(defaultSlave().conn)
	if routeOf(m, "TestTopic") != nil {
		t.Fatal("route left after both connections closed")
	}
}

func TestRouteInfoManagerNewTest_onChannelDestroyByBrokerInfo(t *testing.T) {
	m := newTestManager()
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(1000)
	registerNormal(t, m, b, "TestTopic")
	m.ScanExpired(testNow.Add(1001 * 1e6))
	if routeOf(m, "TestTopic") != nil {
		t.Fatal("route left after expiry")
	}
}

func TestRouteInfoManagerNewTest_keepTopicWithBrokerRegistration(t *testing.T) {
	m := newTestManager()
	registerNormal(t, m, defaultMaster(), "TestTopic", "TestTopic1")
	registerNormal(t, m, defaultMaster(), "TestTopic1")
	if routeOf(m, "TestTopic") == nil || routeOf(m, "TestTopic1") == nil {
		t.Fatal("topic dropped without deleteTopicWithBrokerRegistration")
	}
}

func TestRouteInfoManagerNewTest_deleteTopicWithBrokerRegistration(t *testing.T) {
	m := NewManager(Config{SupportActingMaster: true, DeleteTopicWithBrokerRegistration: true})
	registerNormal(t, m, defaultMaster(), "TestTopic", "TestTopic1")
	registerNormal(t, m, defaultMaster(), "TestTopic1")
	if routeOf(m, "TestTopic") != nil || routeOf(m, "TestTopic1") == nil {
		t.Fatal("TestTopic should go, TestTopic1 stay")
	}
}

func TestRouteInfoManagerNewTest_deleteTopicWithBrokerRegistration2(t *testing.T) {
	m := NewManager(Config{SupportActingMaster: true, DeleteTopicWithBrokerRegistration: true})
	master1 := defaultMaster()
	master2 := defaultMaster().withName("Default_Broker1")
	master2.addr = "127.0.0.1:109119"
	registerNormal(t, m, master1, "TestTopic", "TestTopic1")
	registerNormal(t, m, master2, "TestTopic", "TestTopic1")
	registerNormal(t, m, master1, "TestTopic1")
	route := mustRoute(t, m, "TestTopic")
	if len(route.BrokerDatas) != 1 || route.BrokerDatas[0].BrokerName != master2.name {
		t.Fatalf("TestTopic after master1 dropped it: %+v", route.BrokerDatas)
	}
	if len(mustRoute(t, m, "TestTopic1").BrokerDatas) != 2 {
		t.Fatal("TestTopic1 lost a broker")
	}
	registerNormal(t, m, master2, "TestTopic1")
	if routeOf(m, "TestTopic") != nil || len(mustRoute(t, m, "TestTopic1").BrokerDatas) != 2 {
		t.Fatal("TestTopic should be gone, TestTopic1 keep both")
	}
}

func TestRouteInfoManagerNewTest_registerSingleTopicWithBrokerRegistration(t *testing.T) {
	m := NewManager(Config{SupportActingMaster: true, DeleteTopicWithBrokerRegistration: true})
	master := defaultMaster()
	single := func(topic string) bool {
		return m.RegisterTopic(topic, []QueueData{{BrokerName: master.name, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6}})
	}
	if single("TestTopic") || routeOf(m, "TestTopic") != nil {
		t.Fatal("single topic of an unknown broker accepted")
	}
	registerNormal(t, m, master, "TestTopic")
	if !single("TestTopic1") || routeOf(m, "TestTopic1") == nil {
		t.Fatal("single topic of a registered broker refused")
	}
	registerNormal(t, m, master, "TestTopic", "TestTopic1")
	if routeOf(m, "TestTopic") == nil || routeOf(m, "TestTopic1") == nil {
		t.Fatal("routes lost")
	}
	registerNormal(t, m, master, "TestTopic")
	if routeOf(m, "TestTopic") == nil || routeOf(m, "TestTopic1") != nil {
		t.Fatal("TestTopic1 should be removed by the full registration")
	}
	single("TestTopic1")
	unregister(m, master)
	if routeOf(m, "TestTopic") != nil || routeOf(m, "TestTopic1") != nil {
		t.Fatal("routes left after unregistration")
	}
}
