package route

import (
	"errors"
	"testing"
)

// Tests of the section 10 quirks this package reproduces or fixes (the
// table is in README.md).

func TestQuirkQ9SingleTopicFirstRegistrationRefusedButLeavesATrace(t *testing.T) {
	m := NewManager(Config{})
	b := brokerInfo{cluster: "DefaultCluster", name: "broker-e", addr: "10.0.0.5:10911", id: 0}
	_, _, err := m.RegisterBroker(b.request(topicConfig("OnlyTopic", 4, 6)), testNow)
	if !errors.Is(err, ErrRegisterRefused) {
		t.Fatalf("err = %v, want ErrRegisterRefused", err)
	}
	info := m.ClusterInfo()
	group, ok := info.BrokerAddrTable["broker-e"]
	if !ok || len(group.BrokerAddrs) != 0 || info.ClusterAddrTable["DefaultCluster"][0] != "broker-e" {
		t.Fatalf("trace of the refused registration = %+v", info)
	}
	if routeOf(m, "OnlyTopic") != nil || m.Generation(b.cluster, b.addr) != 0 {
		t.Fatal("refused registration created a route or a live entry")
	}
	// a member may register a single topic later
	mustRegister(t, m, b.request(topicConfig("A", 4, 6), topicConfig("B", 4, 6)))
	mustRegister(t, m, b.request(topicConfig("OnlyTopic", 4, 6)))
}

func TestQuirkQ10StaleStateVersionAnswersEmptyAndDropsTheNewcomer(t *testing.T) {
	m := NewManager(Config{})
	holder := defaultMaster()
	holder.dv.StateVersion = 5
	registerNormal(t, m, holder, "T")
	newcomer := defaultMaster().withAddr("127.0.0.1:10999")
	newcomer.dv.StateVersion = 4
	newcomer.conn = 9
	// Java answers 0 and changes nothing; here the answer says it was ignored.
	result, _, err := m.RegisterBroker(newcomer.request(withBaseTopic(16, "T")...), testNow)
	if !errors.Is(err, ErrRegisterIgnored) {
		t.Fatalf("err = %v, want ErrRegisterIgnored", err)
	}
	if result != (RegisterBrokerResult{}) || m.Generation(newcomer.cluster, newcomer.addr) != 0 {
		t.Fatalf("result %+v, generation %d", result, m.Generation(newcomer.cluster, newcomer.addr))
	}
	if got := m.BrokerMemberGroup(holder.cluster, holder.name)[0]; got != holder.addr {
		t.Fatalf("id 0 = %q, want the holder", got)
	}
}

func TestQuirkQ11MissingFieldsRejectedBeforeAnyChange(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.cluster = ""
	if _, _, err := m.RegisterBroker(b.request(withBaseTopic(16, "T")...), testNow); !errors.Is(err, ErrMissingField) {
		t.Fatalf("err = %v", err)
	}
	if len(m.ClusterInfo().BrokerAddrTable) != 0 {
		t.Fatal("a rejected registration changed the tables")
	}
}

func TestQuirkQ12RegisterTopicIsAllOrNothing(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	ok := m.RegisterTopic("T", []QueueData{{BrokerName: "Default_Broker", Perm: 4}, {BrokerName: "unknown", Perm: 6}})
	if ok || mustRoute(t, m, "T").QueueDatas[0].Perm != 6 {
		t.Fatal("a list with an unknown broker was partly applied")
	}
}

func TestQuirkQ13AddWritePermDropsOtherBits(t *testing.T) {
	m := singleTopicManager(t, "broker-a", PermRead|PermInherit|PermPriority)
	m.AddWritePerm("broker-a")
	if perm := mustRoute(t, m, "topic-0").QueueDatas[0].Perm; perm != PermRead|PermWrite {
		t.Fatalf("perm = %d, want exactly 6", perm)
	}
}

func TestQuirkQ15BrokerNameSharedByTwoClusters(t *testing.T) {
	m := NewManager(Config{})
	a := defaultMaster()
	b := defaultMaster().withAddr("10.1.1.1:1")
	b.cluster, b.id = "Other", 1
	registerNormal(t, m, a, "T")
	registerNormal(t, m, b, "T")
	info := m.ClusterInfo()
	if info.BrokerAddrTable[a.name].Cluster != a.cluster || info.ClusterAddrTable["Other"][0] != a.name ||
		info.ClusterAddrTable[a.cluster][0] != a.name {
		t.Fatalf("cluster info = %+v", info)
	}
}

func TestQuirkQ16UnregisterRemovesTheAddressUnderEveryID(t *testing.T) {
	m := NewManager(Config{NotifyMinBrokerIdChanged: true})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultSlave(), "T")
	req := defaultSlave().unregisterRequest()
	req.BrokerID = 0 // wrong id in the request: still min-id change, address removed
	changes := m.UnregisterBrokers([]UnregisterRequest{req})
	group := m.BrokerMemberGroup("", "Default_Broker")
	if len(group) != 1 || group[0] != defaultMaster().addr {
		t.Fatalf("group = %v", group)
	}
	if len(changes) != 1 || changes[0].OfflineBrokerAddr != defaultSlave().addr {
		t.Fatalf("changes = %+v", changes)
	}
}

func TestQuirkQ17ReducedNameWithoutGroupDoesNotStopCleanup(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	gone := defaultMaster().withName("Gone").withAddr("10.0.0.3:1")
	registerNormal(t, m, gone, "U")
	m.UnregisterBrokers([]UnregisterRequest{
		{ClusterName: "c", BrokerAddr: "a", BrokerName: "NoSuchGroup", Generation: UnfencedGeneration},
		gone.unregisterRequest(),
	})
	if routeOf(m, "U") != nil {
		t.Fatal("cleanup stopped at the unknown reduced name")
	}
}

func TestQuirkQ18DeleteTopicKeepsStaticMapping(t *testing.T) {
	m := NewManager(Config{})
	req := defaultMaster().request(withBaseTopic(16, "S")...)
	req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{
		"S": {Topic: "S", Bname: "Default_Broker", TotalQueues: 1}}
	mustRegister(t, m, req)
	m.DeleteTopic("S", "")
	registerNormal(t, m, defaultMaster(), "S") // same version re-creates the topic
	if route := mustRoute(t, m, "S"); route.TopicQueueMappingByBroker["Default_Broker"].TotalQueues != 1 {
		t.Fatalf("mapping lost: %+v", route.TopicQueueMappingByBroker)
	}
}

func TestQuirkQ26RegistrationNotificationReturnedNotSent(t *testing.T) {
	m := NewManager(Config{NotifyMinBrokerIdChanged: true})
	registerNormal(t, m, defaultSlave().withActing(false), "T")
	_, changes, err := m.RegisterBroker(defaultMaster().withActing(false).request(withBaseTopic(16, "T")...), testNow)
	if err != nil {
		t.Fatal(err)
	}
	want := MinBrokerIDChange{BrokerName: "Default_Broker", Recipients: []string{defaultSlave().addr},
		MinBrokerID: 0, MinBrokerAddr: defaultMaster().addr, HABrokerAddr: defaultMaster().ha}
	if len(changes) != 1 || !sameChange(changes[0], want) {
		t.Fatalf("changes = %+v, want %+v (sent even with acting master off)", changes, want)
	}
}

func TestQuirkQ30ExpiryRemovesOnceAndTheCloseFindsNothing(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	if removed := m.ScanExpired(testNow.Add(DefaultHeartbeatTimeout + 1e6)); len(removed) != 1 {
		t.Fatalf("expired = %+v", removed)
	}
	if removed := m.ConnectionClosed(b.conn); removed != nil {
		t.Fatalf("close after expiry removed %+v", removed)
	}
}
