package route

import (
	"fmt"
	"testing"
)

// walkedCounts counts the tables the slow way, to check Counts against.
func walkedCounts(m *Manager) Counts {
	s := m.current.Load()
	c := Counts{Topics: s.topics.len(), BrokerGroups: s.groups.len(), LiveBrokers: s.live.len(), Clusters: len(s.clusters)}
	for _, entry := range s.topics.all() {
		c.QueueDatas += len(entry.queueDatas)
	}
	return c
}

// TestCountsFollowEveryTableChange: after registrations, a topic
// registration, a delete, a perm change, an unregistration and a
// connection close, the counts kept as the tables change equal a walk.
func TestCountsFollowEveryTableChange(t *testing.T) {
	m := NewManager(Config{})
	a := brokerInfo{cluster: "c1", name: "broker-a", addr: "10.0.0.1:10911", conn: 1}
	b := brokerInfo{cluster: "c1", name: "broker-b", addr: "10.0.0.2:10911", conn: 2}
	x := brokerInfo{cluster: "c2", name: "broker-x", addr: "10.0.0.3:10911", conn: 3}
	var shared []TopicConfig
	for i := range 5 {
		shared = append(shared, topicConfig(fmt.Sprintf("T%d", i), 4, PermRead|PermWrite))
	}
	check := func(step string, want Counts) {
		t.Helper()
		if got := m.Counts(); got != walkedCounts(m) || got != want {
			t.Fatalf("%s: counts %+v, walk %+v, want %+v", step, got, walkedCounts(m), want)
		}
	}
	mustRegister(t, m, a.request(shared...))
	mustRegister(t, m, b.request(append(shared, topicConfig("OnlyB", 2, PermRead|PermWrite))...))
	mustRegister(t, m, x.request(topicConfig("X", 8, PermRead|PermWrite), topicConfig("Y", 8, PermRead|PermWrite)))
	check("registered", Counts{Topics: 8, QueueDatas: 13, BrokerGroups: 3, LiveBrokers: 3, Clusters: 2})
	mustRegister(t, m, a.request(shared...)) // the same table again
	check("re-registered", Counts{Topics: 8, QueueDatas: 13, BrokerGroups: 3, LiveBrokers: 3, Clusters: 2})
	m.RegisterTopic("Extra", []QueueData{{BrokerName: "broker-a", ReadQueueNums: 1, WriteQueueNums: 1, Perm: PermRead}})
	check("topic registered", Counts{Topics: 9, QueueDatas: 14, BrokerGroups: 3, LiveBrokers: 3, Clusters: 2})
	m.DeleteTopic("T0", "")
	check("topic deleted", Counts{Topics: 8, QueueDatas: 12, BrokerGroups: 3, LiveBrokers: 3, Clusters: 2})
	m.WipeWritePerm("broker-b")
	check("perm wiped", Counts{Topics: 8, QueueDatas: 12, BrokerGroups: 3, LiveBrokers: 3, Clusters: 2})
	m.UnregisterBrokers([]UnregisterRequest{b.unregisterRequest()})
	check("b unregistered", Counts{Topics: 7, QueueDatas: 7, BrokerGroups: 2, LiveBrokers: 2, Clusters: 2})
	m.ConnectionClosed(3)
	check("x's connection closed", Counts{Topics: 5, QueueDatas: 5, BrokerGroups: 1, LiveBrokers: 1, Clusters: 1})
}

// TestLiveBrokerViewAndTopicPage: the view shows a broker's id, version,
// registration time, topic count and a wiped write permission, and pages
// topics by cluster and name with the total.
func TestLiveBrokerViewAndTopicPage(t *testing.T) {
	m := NewManager(Config{})
	a := brokerInfo{cluster: "c1", name: "broker-a", addr: "10.0.0.1:10911", id: 0, conn: 1, zone: "z1", timeoutMillis: int64Ptr(30000)}
	s := brokerInfo{cluster: "c1", name: "broker-a", addr: "10.0.0.2:10911", id: 1, conn: 2, zone: "z1"}
	x := brokerInfo{cluster: "c2", name: "broker-x", addr: "10.0.0.3:10911", conn: 3}
	reqA := a.request(topicConfig("Orders", 4, PermRead|PermWrite), topicConfig("Pay", 2, PermRead|PermWrite))
	reqA.Version = 479
	mustRegister(t, m, reqA)
	mustRegister(t, m, s.request(topicConfig("Orders", 4, PermRead|PermWrite), topicConfig("Pay", 2, PermRead|PermWrite)))
	mustRegister(t, m, x.request(topicConfig("Orders", 8, PermRead|PermWrite), topicConfig("Xonly", 1, PermRead|PermWrite)))
	m.WipeWritePerm("broker-x")

	views := m.LiveBrokers()
	if len(views) != 3 {
		t.Fatalf("%d live brokers, want 3", len(views))
	}
	va := views[0]
	if va.BrokerAddr != a.addr || va.BrokerID != 0 || va.Version != 479 || va.ZoneName != "z1" || va.TopicCount != 2 ||
		va.HeartbeatTimeoutMillis != 30000 || va.LastRegisterMillis != testNow.UnixMilli() || va.WritePermWiped || va.Conn != 1 {
		t.Fatalf("broker-a master view %+v", va)
	}
	if vs := views[1]; vs.BrokerID != 1 || vs.BrokerName != "broker-a" {
		t.Fatalf("broker-a slave view %+v", vs)
	}
	if vx := m.LiveBroker(x.addr); len(vx) != 1 || !vx[0].WritePermWiped || vx[0].TopicCount != 2 || vx[0].Cluster != "c2" {
		t.Fatalf("broker-x view %+v, want wiped with 2 topics", vx)
	}
	if none := m.LiveBroker("10.9.9.9:1"); len(none) != 0 {
		t.Fatalf("unknown address found: %+v", none)
	}

	page, total := m.TopicPage(TopicFilter{Limit: 2})
	if total != 3 || len(page) != 2 || page[0].Topic != "Orders" || page[1].Topic != "Pay" {
		t.Fatalf("first page %+v of %d", page, total)
	}
	if o := page[0]; o.ReadQueueNums != 12 || !o.Writable || len(o.BrokerNames) != 2 {
		t.Fatalf("Orders summary %+v", o)
	}
	page, total = m.TopicPage(TopicFilter{Offset: 2, Limit: 2})
	if total != 3 || len(page) != 1 || page[0].Topic != "Xonly" || page[0].Writable {
		t.Fatalf("second page %+v of %d", page, total)
	}
	if page, total = m.TopicPage(TopicFilter{Offset: 10, Limit: 2}); total != 3 || len(page) != 0 {
		t.Fatalf("page past the end %+v of %d", page, total)
	}
	page, total = m.TopicPage(TopicFilter{Cluster: "c1"})
	if total != 2 || len(page) != 2 {
		t.Fatalf("cluster c1 page %+v of %d, want Orders and Pay", page, total)
	}
	page, total = m.TopicPage(TopicFilter{Contains: "ay"})
	if total != 1 || page[0].Topic != "Pay" {
		t.Fatalf("search page %+v of %d", page, total)
	}
	topics, table := m.TopicQueueDatas()
	if len(topics) != 3 || len(table["Orders"]) != 2 {
		t.Fatalf("dump %v %+v", topics, table)
	}
}
