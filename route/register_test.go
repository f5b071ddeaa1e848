package route

import (
	"errors"
	"testing"
)

// fingerprinted registers b with a body fingerprint, as the daemon does.
func fingerprinted(b brokerInfo, fingerprint uint64, topics ...string) *RegisterBrokerRequest {
	req := b.request(withBaseTopic(16, topics...)...)
	req.BodyFingerprint = fingerprint
	return req
}

func TestUnchangedRegistrationFastPathStillRestoresDeletedTopics(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	mustRegister(t, m, fingerprinted(b, 11, "T", "U"))
	m.WipeWritePerm(b.name)
	mustRegister(t, m, fingerprinted(b, 11, "T", "U")) // skipped: perm change survives
	if writable(mustRoute(t, m, "T").QueueDatas[0]) {
		t.Fatal("unchanged registration rewrote the queue data")
	}
	m.DeleteTopic("U", "")
	mustRegister(t, m, fingerprinted(b, 11, "T", "U")) // topic set changed since: Java re-adds U
	if routeOf(m, "U") == nil {
		t.Fatal("deleted topic not re-created by the next registration")
	}
}

func TestSameVersionDifferentBodyIsNotSkipped(t *testing.T) {
	// split registration: same DataVersion, each part a different body
	m := NewManager(Config{})
	b := defaultMaster()
	mustRegister(t, m, fingerprinted(b, 1, "A"))
	mustRegister(t, m, fingerprinted(b, 2, "B"))
	if routeOf(m, "A") == nil || routeOf(m, "B") == nil {
		t.Fatal("second part of a split registration lost")
	}
}

func TestRegistrationWithoutTopicTable(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	if m.IsUnchangedRegistration(b.cluster, b.addr, b.id, b.dv, 5) {
		t.Fatal("unknown broker reported unchanged")
	}
	mustRegister(t, m, fingerprinted(b, 5, "T"))
	if !m.IsUnchangedRegistration(b.cluster, b.addr, b.id, b.dv, 5) || m.IsUnchangedRegistration(b.cluster, b.addr, b.id, b.dv, 6) {
		t.Fatal("IsUnchangedRegistration does not follow the fingerprint")
	}
	skip := &RegisterBrokerRequest{ClusterName: b.cluster, BrokerAddr: b.addr, BrokerName: b.name, HAServerAddr: b.ha,
		BrokerID: b.id, EnableActingMaster: b.acting, Conn: b.conn, BodyFingerprint: 5, UndecodedDataVersion: &b.dv}
	if _, _, err := m.RegisterBroker(skip, testNow); err != nil {
		t.Fatalf("skip refused: %v", err)
	}
	m.DeleteTopic("T", "")
	before := m.current.Load()
	if _, _, err := m.RegisterBroker(skip, testNow); !errors.Is(err, ErrTopicTableRequired) {
		t.Fatalf("err = %v, want ErrTopicTableRequired after a topic change", err)
	}
	if m.current.Load() != before {
		t.Fatal("a refused skip changed the tables")
	}
}

func TestSlaveResultNeedsALiveMaster(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultSlave(), "T")
	m.mu.Lock() // the master's live entry goes, its group entry stays
	tx := m.begin()
	tx.removeLive(brokerAddrInfo{cluster: defaultMaster().cluster, addr: defaultMaster().addr})
	tx.commit()
	m.mu.Unlock()
	if result := registerNormal(t, m, defaultSlave(), "T"); result != (RegisterBrokerResult{}) {
		t.Fatalf("result = %+v, want empty without a live master", result)
	}
}

func TestFilterServersFollowRegistrations(t *testing.T) {
	m := NewManager(Config{})
	req := defaultMaster().request(withBaseTopic(16, "T")...)
	req.Body.FilterServerList = []string{"f:1"}
	mustRegister(t, m, req)
	if got := mustRoute(t, m, "T").FilterServerTable[defaultMaster().addr]; len(got) != 1 || got[0] != "f:1" {
		t.Fatalf("filter servers = %v", got)
	}
	old := defaultMaster().request(withBaseTopic(16, "T")...)
	old.FilterServersGiven = false // old-version body: table left alone
	mustRegister(t, m, old)
	if len(mustRoute(t, m, "T").FilterServerTable) != 1 {
		t.Fatal("old-version registration cleared the filter servers")
	}
	registerNormal(t, m, defaultMaster(), "T") // empty list: removed
	if len(mustRoute(t, m, "T").FilterServerTable) != 0 {
		t.Fatal("empty list did not remove the filter servers")
	}
}

// A NoWait registration applies an undecoded body only, and only when it
// gets the writer lock at once; refused, it changes nothing.
func TestNoWaitRegistrationNeverWaitsNorAppliesATable(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	mustRegister(t, m, fingerprinted(b, 5, "T"))
	withTable := fingerprinted(b, 6, "T", "U")
	withTable.NoWait = true
	before := m.current.Load()
	if _, _, err := m.RegisterBroker(withTable, testNow); !errors.Is(err, ErrTopicTableRequired) {
		t.Fatalf("NoWait with a topic table: err = %v, want ErrTopicTableRequired", err)
	}
	next := b
	next.dv.Counter++
	skip := &RegisterBrokerRequest{ClusterName: b.cluster, BrokerAddr: b.addr, BrokerName: b.name, HAServerAddr: b.ha,
		BrokerID: b.id, EnableActingMaster: b.acting, Conn: b.conn, BodyFingerprint: 5, UndecodedDataVersion: &next.dv,
		NoWait: true}
	m.mu.Lock() // another writer
	_, _, err := m.RegisterBroker(skip, testNow)
	m.mu.Unlock()
	if !errors.Is(err, ErrWriterBusy) {
		t.Fatalf("NoWait under a held lock: err = %v, want ErrWriterBusy", err)
	}
	if m.current.Load() != before || routeOf(m, "U") != nil {
		t.Fatal("a refused NoWait registration changed the tables")
	}
	skip.UndecodedDataVersion = &b.dv // the body last applied, again
	if _, _, err := m.RegisterBroker(skip, testNow); err != nil {
		t.Fatalf("NoWait with the lock free: %v", err)
	}
}
