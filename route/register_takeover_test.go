package route

import (
	"errors"
	"testing"
	"time"
)

// controllerMaster is a RocketMQ 5 controller-mode master: its stateVersion
// is its master epoch.
func controllerMaster(addr string, conn ConnID, epoch int64) brokerInfo {
	b := defaultMaster().withAddr(addr)
	b.conn, b.dv.StateVersion = conn, epoch
	return b
}

// TestFailoverTakesIdZeroFromALiveOldMaster: the controller's new master
// (a former slave, or a broker at a new address) registers as id 0 with a
// higher epoch while the old master is still live: it takes the id, the
// route points at it, and the result names the holder it replaced.
func TestFailoverTakesIdZeroFromALiveOldMaster(t *testing.T) {
	for _, member := range []bool{true, false} {
		m := newTestManager()
		old := controllerMaster("127.0.0.1:10911", 1, 1)
		registerNormal(t, m, old, "T")
		next := controllerMaster("127.0.0.1:10999", 2, 2)
		if member { // a slave of the group first
			next.id = 1
			registerNormal(t, m, next, "T")
			next.id = 0
		}
		result := registerNormal(t, m, next, "T")
		want := BrokerIDTakeover{PreviousAddr: old.addr, PreviousStateVersion: 1, StateVersion: 2}
		if result.TakenOver == nil || *result.TakenOver != want {
			t.Fatalf("member %v: TakenOver = %+v, want %+v", member, result.TakenOver, want)
		}
		if got := m.BrokerMemberGroup(old.cluster, old.name)[0]; got != next.addr {
			t.Fatalf("member %v: id 0 = %q, want the new master %q", member, got, next.addr)
		}
		if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[0]; got != next.addr {
			t.Fatalf("member %v: route's master = %q", member, got)
		}
		// The old master, still on epoch 1, registers again: ignored, its
		// live entry dropped, the new master kept.
		result, _, err := m.RegisterBroker(old.nextVersion().request(withBaseTopic(16, "T")...), testNow)
		if !errors.Is(err, ErrStaleStateVersion) || !errors.Is(err, ErrRegisterIgnored) {
			t.Fatalf("member %v: stale old master: err = %v, want ErrStaleStateVersion", member, err)
		}
		if result != (RegisterBrokerResult{}) || m.Generation(old.cluster, old.addr) != 0 {
			t.Fatalf("member %v: stale old master: result %+v, still live: %v", member, result, m.Generation(old.cluster, old.addr) != 0)
		}
		if got := m.BrokerMemberGroup(old.cluster, old.name)[0]; got != next.addr {
			t.Fatalf("member %v: id 0 = %q after the stale registration", member, got)
		}
		// The old master's connection closing leaves the new master routed.
		m.ConnectionClosed(old.conn)
		if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[0]; got != next.addr {
			t.Fatalf("member %v: route's master = %q after the old master's connection closed", member, got)
		}
	}
}

// TestEqualStateVersionTakesOver: Java ignores only a strictly older
// stateVersion, so an equal one (every broker outside controller mode has
// 0) takes the id from a live holder.
func TestEqualStateVersionTakesOver(t *testing.T) {
	m := newTestManager()
	old := controllerMaster("127.0.0.1:10911", 1, 0)
	registerNormal(t, m, old, "T")
	moved := controllerMaster("127.0.0.1:10999", 2, 0)
	if result := registerNormal(t, m, moved, "T"); result.TakenOver == nil || result.TakenOver.PreviousAddr != old.addr {
		t.Fatalf("TakenOver = %+v", result.TakenOver)
	}
	if got := m.BrokerMemberGroup(old.cluster, old.name)[0]; got != moved.addr {
		t.Fatalf("id 0 = %q, want %q", got, moved.addr)
	}
}

// TestNoTakeoverReportedWithoutALiveHolder: an id whose holder left the live
// table is simply given to the registration, and no takeover is reported;
// nor is one for the holder registering again.
func TestNoTakeoverReportedWithoutALiveHolder(t *testing.T) {
	m := newTestManager()
	old := controllerMaster("127.0.0.1:10911", 1, 5)
	registerNormal(t, m, old, "T")
	if result := registerNormal(t, m, old.nextVersion(), "T"); result.TakenOver != nil {
		t.Fatalf("the holder's own registration reported a takeover: %+v", result.TakenOver)
	}
	m.ConnectionClosed(old.conn)
	next := controllerMaster("127.0.0.1:10999", 2, 1) // lower, but nobody live holds the id
	if result := registerNormal(t, m, next, "T"); result.TakenOver != nil {
		t.Fatalf("TakenOver = %+v without a live holder", result.TakenOver)
	}
}

// TestOldMasterLeavingAfterTheFailoverKeepsTheNewOne: the old master, still
// live after the new one took id 0, goes (its connection closes, or it
// expires): the new master stays id 0 and routed.
func TestOldMasterLeavingAfterTheFailoverKeepsTheNewOne(t *testing.T) {
	for _, leave := range []string{"close", "expire"} {
		m := newTestManager()
		old := controllerMaster("127.0.0.1:10911", 1, 1)
		old.timeoutMillis = int64Ptr(10_000)
		registerNormal(t, m, old, "T")
		next := controllerMaster("127.0.0.1:10999", 2, 2)
		registerNormal(t, m, next, "T")
		if leave == "close" {
			m.ConnectionClosed(old.conn)
		} else {
			m.ScanExpired(testNow.Add(11 * time.Second))
			registerNormal(t, m, next.nextVersion(), "T") // the new master keeps registering
		}
		if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[0]; got != next.addr {
			t.Fatalf("%s: route's master = %q, want %q", leave, got, next.addr)
		}
	}
}
