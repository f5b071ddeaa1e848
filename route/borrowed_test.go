package route

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// borrowAll copies from's whole state into to, as a warm start does, in
// pages of about pageBytes, and returns how many pages it took.
func borrowAll(t testing.TB, from, to *Manager, source string, deadline, now time.Time, pageBytes int) int {
	t.Helper()
	brokers, elections := from.PeerBrokers(now)
	to.InstallBorrowedBrokers(Borrowing{Source: source, Deadline: deadline, Now: now}, brokers, elections)
	pages := 0
	for cursor := (TopicCursor{}); ; {
		topics, next, done := from.PeerTopics(cursor, pageBytes)
		// Through JSON, as the wire carries them.
		body, err := json.Marshal(topics)
		if err != nil {
			t.Fatal(err)
		}
		var decoded PeerTopicPage
		if err := json.Unmarshal(body, &decoded); err != nil {
			t.Fatal(err)
		}
		to.InstallBorrowedTopics(decoded)
		pages++
		if done {
			return pages
		}
		cursor = next
	}
}

func sameRoutes(t *testing.T, a, b *Manager, topics ...string) {
	t.Helper()
	for _, topic := range topics {
		ra, okA := a.PickupTopicRouteData(topic)
		rb, okB := b.PickupTopicRouteData(topic)
		if okA != okB || !reflect.DeepEqual(ra, rb) {
			t.Fatalf("route of %s: peer %v %+v, borrower %v %+v", topic, okA, ra, okB, rb)
		}
	}
}

var (
	borrowA = brokerInfo{cluster: "c1", name: "bA", addr: "10.0.0.1:10911", conn: 1, dv: DataVersion{Counter: 3, Timestamp: 9}, zone: "z1"}
	borrowS = brokerInfo{cluster: "c1", name: "bA", addr: "10.0.0.2:10911", id: 1, conn: 2, dv: DataVersion{Counter: 3, Timestamp: 9}}
	borrowB = brokerInfo{cluster: "c2", name: "bB", addr: "10.0.0.3:10911", conn: 3, dv: DataVersion{Counter: 1}}
)

func peerWorld(t *testing.T) *Manager {
	peer := NewManager(Config{})
	mustRegister(t, peer, borrowA.request(topicConfig("T1", 8, 6), topicConfig("T2", 4, 6)))
	mustRegister(t, peer, borrowS.request(topicConfig("T1", 8, 6), topicConfig("T2", 4, 6)))
	mustRegister(t, peer, borrowB.request(topicConfig("T2", 2, 6), topicConfig("T3", 1, 4)))
	return peer
}

func TestBorrowedStateAnswersRoutesAsThePeer(t *testing.T) {
	peer := peerWorld(t)
	if _, err := peer.ApplyElection(Election{Cluster: "c1", BrokerName: "bA", MasterAddr: borrowA.addr, Epoch: 7, Now: testNow}); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{})
	borrowAll(t, peer, m, "peer:9876", testNow.Add(time.Minute), testNow, 1)
	sameRoutes(t, peer, m, "T1", "T2", "T3")
	if epoch, master, ok := m.ManagedEpoch("bA"); !ok || epoch != 7 || master != borrowA.addr {
		t.Fatalf("election record = %d %q %v, want the peer's", epoch, master, ok)
	}
	if got := m.BorrowedSources(); got["peer:9876"] != 3 {
		t.Fatalf("borrowed = %v, want 3 from the peer", got)
	}
	// The broker's data-version query finds its version changed (it registers).
	if changed, _ := m.QueryDataVersion("c1", borrowA.addr, &borrowA.dv, testNow); !changed {
		t.Fatal("a borrowed entry answers the broker's data version unchanged: it would not register")
	}
}

func TestBorrowedStateCarriesStaticTopicMappings(t *testing.T) {
	peer := NewManager(Config{})
	req := borrowA.request(topicConfig("Static1", 4, 6), topicConfig("T1", 4, 6))
	req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{
		"Static1": {Topic: "Static1", Scope: DefaultMappingScope, Bname: "bA", TotalQueues: 4, Epoch: 3, CurrIDMap: map[int32]int32{0: 0, 1: 1}},
	}
	mustRegister(t, peer, req)
	m := NewManager(Config{})
	borrowAll(t, peer, m, "peer:9876", testNow.Add(time.Minute), testNow, 1<<20)
	sameRoutes(t, peer, m, "Static1", "T1")
	if r, _ := m.PickupTopicRouteData("Static1"); len(r.TopicQueueMappingByBroker) != 1 {
		t.Fatalf("mapping not borrowed: %+v", r)
	}
}

func TestBorrowedEntryBecomesOwnOnRegistration(t *testing.T) {
	peer := peerWorld(t)
	m := NewManager(Config{})
	borrowAll(t, peer, m, "peer:9876", testNow.Add(time.Minute), testNow, 1<<20)
	mustRegister(t, m, borrowB.withConn(42).request(topicConfig("T2", 2, 6), topicConfig("T3", 1, 4)))
	if got := m.BorrowedSources()["peer:9876"]; got != 2 {
		t.Fatalf("borrowed after bB registered = %d, want 2", got)
	}
	// Past the borrowed deadline only the registered broker stays.
	m.ScanExpired(testNow.Add(time.Minute + 2*time.Second))
	if _, ok := m.PickupTopicRouteData("T1"); ok {
		t.Fatal("T1 (borrowed bA only) still routed past the deadline")
	}
	r, ok := m.PickupTopicRouteData("T3")
	if !ok || len(r.BrokerDatas) != 1 || r.BrokerDatas[0].BrokerAddrs[0] != borrowB.addr {
		t.Fatalf("T3 after bB registered and the deadline = %+v %v", r, ok)
	}
}

func TestBorrowedEntryExpiresAtTheDeadlineDespiteHeartbeats(t *testing.T) {
	peer := peerWorld(t)
	m := NewManager(Config{})
	deadline := testNow.Add(10 * time.Second)
	borrowAll(t, peer, m, "peer:9876", deadline, testNow, 1<<20)
	m.Heartbeat("c1", borrowA.addr, deadline.Add(-time.Second))
	if n := m.ExtendDeadlines(testNow, deadline.Add(-time.Second)); n != 0 {
		t.Fatalf("a pause extended %d borrowed entries", n)
	}
	m.QueryDataVersion("c1", borrowS.addr, &borrowS.dv, deadline.Add(-time.Second))
	if removed := m.ScanExpired(deadline.Add(-500 * time.Millisecond)); len(removed) != 0 {
		t.Fatalf("removed before the deadline: %+v", removed)
	}
	if removed := m.ScanExpired(deadline.Add(1500 * time.Millisecond)); len(removed) != 3 {
		t.Fatalf("removed at the deadline = %+v, want the 3 borrowed", removed)
	}
	if got := m.Counts(); got.Topics != 0 {
		t.Fatalf("counts after the deadline = %+v", got)
	}
}

func TestBorrowedEntriesLeaveWhenThePeerDropsThem(t *testing.T) {
	peer := peerWorld(t)
	m := NewManager(Config{})
	borrowAll(t, peer, m, "peer:9876", testNow.Add(time.Minute), testNow, 1<<20)
	removed := m.DropBorrowed("peer:9876", func(_, addr string) bool { return addr != borrowB.addr },
		func(topic, name string) bool { return !(topic == "T2" && name == "bA") })
	if len(removed) != 1 || removed[0].BrokerAddr != borrowB.addr {
		t.Fatalf("removed = %+v, want bB", removed)
	}
	if _, ok := m.PickupTopicRouteData("T3"); ok {
		t.Fatal("T3 (bB only) still routed")
	}
	if _, ok := m.PickupTopicRouteData("T2"); ok {
		t.Fatal("T2, which the peer no longer routes through bA, still routed")
	}
	if _, ok := m.PickupTopicRouteData("T1"); !ok {
		t.Fatal("T1 dropped though the peer still has it")
	}
	// Another peer's source drops nothing.
	if removed := m.DropBorrowed("other:9876", func(string, string) bool { return false },
		func(string, string) bool { return false }); len(removed) != 0 {
		t.Fatalf("another source removed %+v", removed)
	}
}

func TestBorrowingKeepsTheEarlierDeadline(t *testing.T) {
	peer := peerWorld(t)
	first := NewManager(Config{})
	firstDeadline := testNow.Add(20 * time.Second)
	borrowAll(t, peer, first, "peer:9876", firstDeadline, testNow, 1<<20)
	// The peer goes; a third server borrows from the first, its own
	// deadline later: it keeps the first one's.
	later := testNow.Add(5 * time.Second)
	second := NewManager(Config{})
	borrowAll(t, first, second, "first:9876", later.Add(2*time.Minute), later, 1<<20)
	sameRoutes(t, peer, second, "T1", "T2", "T3")
	brokers, _ := second.PeerBrokers(later)
	for _, b := range brokers {
		if b.BorrowedMillis != 15_000 {
			t.Fatalf("%s borrowed for %d ms, want the first borrower's 15000", b.Addr, b.BorrowedMillis)
		}
		if b.DataVersion != borrowA.dv && b.DataVersion != borrowB.dv {
			t.Fatalf("%s data version %+v, not the broker's", b.Addr, b.DataVersion)
		}
	}
	if removed := second.ScanExpired(firstDeadline.Add(1500 * time.Millisecond)); len(removed) != 3 {
		t.Fatalf("removed at the first deadline = %d, want 3", len(removed))
	}
}

func TestBorrowedDoesNotReplaceOwnEntries(t *testing.T) {
	peer := peerWorld(t)
	m := NewManager(Config{})
	own := borrowB.withConn(9)
	mustRegister(t, m, own.request(topicConfig("T3", 5, 6), topicConfig("T4", 5, 6)))
	borrowAll(t, peer, m, "peer:9876", testNow.Add(time.Minute), testNow, 1<<20)
	r, _ := m.PickupTopicRouteData("T3")
	if len(r.QueueDatas) != 1 || r.QueueDatas[0].ReadQueueNums != 5 {
		t.Fatalf("own queue data of T3 replaced: %+v", r.QueueDatas)
	}
	if _, ok := m.PickupTopicRouteData("T2"); !ok {
		t.Fatal("T2 not borrowed")
	}
}

func TestPeerTopicsPagesEveryTopicOnce(t *testing.T) {
	m := NewManager(Config{})
	var configs []TopicConfig
	for i := range 500 {
		configs = append(configs, topicConfig(fmt.Sprintf("PageTopic%d", i), 1, 6))
	}
	mustRegister(t, m, borrowA.request(configs...))
	seen := map[string]int{}
	pages := 0
	for cursor := (TopicCursor{}); ; pages++ {
		topics, next, done := m.PeerTopics(cursor, 300)
		for _, topic := range topics.Topics {
			seen[topic]++
		}
		if done {
			break
		}
		cursor = next
	}
	if len(seen) != 500 || pages < 10 {
		t.Fatalf("%d topics in %d pages", len(seen), pages)
	}
	for topic, n := range seen {
		if n != 1 {
			t.Fatalf("%s paged %d times", topic, n)
		}
	}
}

// TestBorrowedBrokerWithoutItsTopicsLeavesNoIndex: the topic index a
// warm start sizes ahead for a broker name whose pages never came goes
// with the broker.
func TestBorrowedBrokerWithoutItsTopicsLeavesNoIndex(t *testing.T) {
	peer := peerWorld(t)
	m := NewManager(Config{})
	brokers, elections := peer.PeerBrokers(testNow)
	m.InstallBorrowedBrokers(Borrowing{Source: "peer:9876", Deadline: testNow.Add(10 * time.Second), Now: testNow}, brokers, elections)
	m.ScanExpired(testNow.Add(12 * time.Second))
	if got := m.IndexSizes(); got.BrokerTopics != 0 || got.Live != 0 || got.Groups != 0 {
		t.Fatalf("indexes after the borrowed brokers expired: %+v", got)
	}
}
