package route

import (
	"fmt"
	"testing"
)

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

func TestQueryDataVersionJSONComparesTheBytesThenTheVersion(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(1000)
	registerNormal(t, m, b, "T")
	encoded := EncodeDataVersion(nil, b.dv)
	// Reordered keys and spaces: the same version, found by decoding.
	reordered := fmt.Sprintf(`{ "timestamp": %d, "counter": %d, "stateVersion": %d }`, b.dv.Timestamp, b.dv.Counter, b.dv.StateVersion)
	newer := EncodeDataVersion(nil, DataVersion{Counter: b.dv.Counter + 1, Timestamp: b.dv.Timestamp})
	for _, c := range []struct {
		name    string
		body    string
		changed bool
	}{
		{"the stored bytes", string(encoded), false},
		{"the same version, written otherwise", reordered, false},
		{"a newer version", string(newer), true},
		{"no body", "", true},
	} {
		out, changed, ok := m.QueryDataVersionJSON(b.cluster, b.addr, []byte(c.body), testNow)
		if !ok || changed != c.changed || string(out) != string(encoded) {
			t.Errorf("%s: %q changed=%v ok=%v, want the stored version and changed=%v", c.name, out, changed, ok, c.changed)
		}
	}
	if _, _, ok := m.QueryDataVersionJSON(b.cluster, b.addr, []byte(`{"counter":`), testNow.Add(900*1e6)); ok {
		t.Fatal("a body that does not decode must be declined")
	}
	if removed := m.ScanExpired(testNow.Add(1500 * 1e6)); len(removed) == 0 {
		t.Fatal("a declined query must not refresh liveness")
	}
	out, changed, ok := m.QueryDataVersionJSON("c", "unknown", encoded, testNow)
	if !ok || !changed || len(out) != 0 {
		t.Fatalf("unknown broker: %q changed=%v ok=%v", out, changed, ok)
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
