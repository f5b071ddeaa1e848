package route

import "testing"

func TestHeartbeatUnknownBrokerIgnored(t *testing.T) {
	m := NewManager(Config{})
	if m.Heartbeat("c", "a", testNow) {
		t.Fatal("heartbeat of an unknown broker reported as known")
	}
}

func TestHeartbeatAllocatesNothing(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	if allocs := testing.AllocsPerRun(100, func() { m.Heartbeat(b.cluster, b.addr, testNow) }); allocs != 0 {
		t.Fatalf("heartbeat allocates %v times", allocs)
	}
}

func TestQueryDataVersionRefreshesAndCompares(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(1000)
	registerNormal(t, m, b, "T")
	if changed, stored := m.QueryDataVersion(b.cluster, b.addr, nil, testNow.Add(900*1e6)); !changed || *stored != b.dv {
		t.Fatalf("absent body: changed=%v stored=%v", changed, stored)
	}
	if removed := m.ScanExpired(testNow.Add(1500 * 1e6)); removed != nil {
		t.Fatal("the query did not refresh liveness")
	}
	if changed, stored := m.QueryDataVersion("c", "unknown", &b.dv, testNow); !changed || stored != nil {
		t.Fatalf("unknown broker: changed=%v stored=%v", changed, stored)
	}
}

func TestGenerationChangesOnlyWithTheLiveEntry(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	first := m.Generation(b.cluster, b.addr)
	registerNormal(t, m, b, "T") // periodic, identical
	if m.Generation(b.cluster, b.addr) != first {
		t.Fatal("identical re-registration changed the generation")
	}
	b.conn++
	registerNormal(t, m, b, "T")
	if m.Generation(b.cluster, b.addr) == first {
		t.Fatal("registration over a new connection kept the generation")
	}
}
