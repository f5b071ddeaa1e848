package route

import (
	"testing"
	"time"
)

// A master an election put at id 0 that never registers here leaves the
// route after the default broker timeout, as a broker that registered once
// and stopped: it cannot pin the set.
func TestElectedMasterThatNeverRegistersExpires(t *testing.T) {
	m := NewManager(Config{ControllerFencing: true, DefaultHeartbeatTimeout: 2 * time.Second})
	master := controllerMaster("127.0.0.1:10911", 1, 1)
	master.timeoutMillis = int64Ptr(60_000)
	registerNormal(t, m, master, "T")
	const stranger = "6.6.6.6:10911"
	applyElection(t, m, master, stranger, 2)
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; got != stranger {
		t.Fatalf("id 0 is %q after the election, want %s", got, stranger)
	}
	if removed := m.ScanExpired(testNow.Add(time.Second)); len(removed) != 0 {
		t.Fatalf("removed before the default timeout: %+v", removed)
	}
	removed := m.ScanExpired(testNow.Add(3 * time.Second))
	if len(removed) != 1 || removed[0].BrokerAddr != stranger || removed[0].BrokerID != MasterID || removed[0].Conn != NoConn {
		t.Fatalf("removed %+v, want only %s at id 0", removed, stranger)
	}
	if route := routeOf(m, "T"); route != nil && route.BrokerDatas[0].BrokerAddrs[MasterID] != "" {
		t.Fatalf("route after the timeout: %+v", route.BrokerDatas)
	}
}

// The elected master's own registration replaces the election's entry: it
// then lives by its own timeout, and the election's does not remove it.
func TestElectedMasterThatRegistersKeepsItsOwnTimeout(t *testing.T) {
	m := NewManager(Config{ControllerFencing: true, DefaultHeartbeatTimeout: 2 * time.Second})
	master := controllerMaster("127.0.0.1:10911", 1, 1)
	master.timeoutMillis = int64Ptr(60_000)
	registerNormal(t, m, master, "T")
	elected := controllerMaster("127.0.0.1:10999", 2, 2)
	elected.timeoutMillis = int64Ptr(60_000)
	applyElection(t, m, master, elected.addr, 2)
	registerNormal(t, m, elected, "T")
	if removed := m.ScanExpired(testNow.Add(10 * time.Second)); len(removed) != 0 {
		t.Fatalf("removed %+v: the registered master expired on the election's timeout", removed)
	}
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; got != elected.addr {
		t.Fatalf("id 0 is %q, want %s", got, elected.addr)
	}
}
