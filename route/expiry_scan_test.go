package route

import (
	"testing"
	"time"
)

func TestScanExpiredUsesEachBrokersOwnTimeout(t *testing.T) {
	m := NewManager(Config{})
	short := defaultMaster()
	short.timeoutMillis = int64Ptr(10_000)
	long := defaultMaster().withName("Long").withAddr("10.0.0.2:1")
	long.conn = 5
	registerNormal(t, m, short, "T")
	registerNormal(t, m, long, "U")
	removed := m.ScanExpired(testNow.Add(10*time.Second + time.Millisecond))
	if len(removed) != 1 || removed[0].BrokerAddr != short.addr || removed[0].Conn != short.conn {
		t.Fatalf("removed = %+v", removed)
	}
	if routeOf(m, "T") != nil || routeOf(m, "U") == nil {
		t.Fatal("wrong routes left")
	}
}

func TestScanExpiredSparesBrokersThatHeartbeat(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(10_000)
	registerNormal(t, m, b, "T")
	for step := 1; step <= 5; step++ {
		now := testNow.Add(time.Duration(step) * 8 * time.Second)
		if !m.Heartbeat(b.cluster, b.addr, now) {
			t.Fatal("heartbeat of a live broker ignored")
		}
		if removed := m.ScanExpired(now.Add(time.Second)); removed != nil {
			t.Fatalf("step %d: removed %+v", step, removed)
		}
	}
	if removed := m.ScanExpired(testNow.Add(60 * time.Second)); len(removed) != 1 {
		t.Fatalf("silent broker not removed: %+v", removed)
	}
}

func TestScanExpiredAfterReRegistrationKeepsTheNewEntry(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	later := testNow.Add(100 * time.Second)
	b.dv.Counter++ // new entry; the old one is retired in the wheel
	if _, _, err := m.RegisterBroker(b.request(withBaseTopic(16, "T")...), later); err != nil {
		t.Fatal(err)
	}
	if removed := m.ScanExpired(testNow.Add(DefaultHeartbeatTimeout + time.Second)); removed != nil {
		t.Fatalf("retired entry expired the broker: %+v", removed)
	}
}
