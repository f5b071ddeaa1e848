package route

import (
	"errors"
	"strconv"
	"testing"
)

// orderedRequests builds a REGISTER and an UNREGISTER of b as one
// connection sent them: the registration arrived at regSeq, the unregister
// at unregSeq, with the generation the unregister found on arrival.
func orderedRequests(m *Manager, b brokerInfo, regSeq, unregSeq uint64) (*RegisterBrokerRequest, UnregisterRequest) {
	reg := requestAt(b, regSeq, "T")
	unreg := b.unregisterRequest()
	unreg.Generation = m.Generation(b.cluster, b.addr)
	unreg.Conn, unreg.ArrivalSeq = b.conn, unregSeq
	return reg, unreg
}

// requestAt is b's registration of topics, arrived at seq on b's connection.
func requestAt(b brokerInfo, seq uint64, topics ...string) *RegisterBrokerRequest {
	reg := b.request(withBaseTopic(16, topics...)...)
	reg.ArrivalSeq = seq
	return reg
}

// REGISTER then UNREGISTER on one open connection, the registration
// applied (on the pool) before the unregistration worker ran: the
// unregister came last on that connection, so it removes the broker
// although its generation predates the registration.
func TestUnregisterAfterRegisterOnOneConnectionWinsWhenAppliedLast(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	reg, unreg := orderedRequests(m, b, 1, 2)
	mustRegister(t, m, reg)
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	if routeOf(m, "T") != nil {
		t.Fatal("the connection's last word was unregister, but the broker stayed")
	}
}

// The same with a broker already registered (generation G1 captured): the
// registration that replaces the entry was sent before the unregister.
func TestUnregisterAfterReRegisterOnOneConnectionWins(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	mustRegister(t, m, requestAt(b, 1, "Old"))
	reg, unreg := orderedRequests(m, b, 2, 3)
	mustRegister(t, m, reg)
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	if routeOf(m, "T") != nil || m.Generation(b.cluster, b.addr) != 0 {
		t.Fatal("the connection's last word was unregister, but the broker stayed")
	}
}

// REGISTER then UNREGISTER on one open connection, the unregister applied
// first: the registration, older than it, must not stand afterwards.
func TestRegistrationOlderThanAnAppliedUnregisterIsDropped(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	reg, unreg := orderedRequests(m, b, 1, 2)
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	_, _, err := m.RegisterBroker(reg, testNow)
	if !errors.Is(err, ErrRegisterSuperseded) || !errors.Is(err, ErrRegisterIgnored) {
		t.Fatalf("register after a later unregister: err %v, want ErrRegisterSuperseded", err)
	}
	if routeOf(m, "T") != nil || m.Generation(b.cluster, b.addr) != 0 {
		t.Fatal("a registration sent before the unregister stood after it")
	}
	// A registration sent after the unregister stands, and clears the mark.
	mustRegister(t, m, requestAt(b, 3, "T"))
	if routeOf(m, "T") == nil {
		t.Fatal("a registration sent after the unregister was refused")
	}
	if len(m.unregisterMarks) != 0 {
		t.Fatalf("%d unregister marks left after a newer registration", len(m.unregisterMarks))
	}
}

// UNREGISTER then REGISTER on one connection, both handled out of order:
// the registration came last, so it stands whatever ran first.
func TestRegisterAfterUnregisterOnOneConnectionStands(t *testing.T) {
	t.Run("registration applied first", func(t *testing.T) {
		m := NewManager(Config{})
		b := defaultMaster()
		mustRegister(t, m, requestAt(b, 1, "Old"))
		_, unreg := orderedRequests(m, b, 3, 2)
		// an unchanged re-registration keeps the entry and its generation
		mustRegister(t, m, requestAt(b, 3, "Old"))
		m.UnregisterBrokers([]UnregisterRequest{unreg})
		if routeOf(m, "Old") == nil {
			t.Fatal("an unregister sent before the registration removed it")
		}
	})
	t.Run("unregister applied first", func(t *testing.T) {
		m := NewManager(Config{})
		b := defaultMaster()
		reg, unreg := orderedRequests(m, b, 3, 2)
		m.UnregisterBrokers([]UnregisterRequest{unreg})
		mustRegister(t, m, reg)
		if routeOf(m, "T") == nil {
			t.Fatal("a registration sent after the unregister was refused")
		}
	})
}

// Across connections the generation rule stays (apache/rocketmq#11043): an
// unregister from the old connection does not remove the broker that
// registered again on a new one, even with a larger arrival number.
func TestUnregisterFromAnotherConnectionKeepsTheGenerationRule(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	reg, unreg := orderedRequests(m, b, 1, 50)
	mustRegister(t, m, reg)
	unreg.Generation = m.Generation(b.cluster, b.addr)
	b.conn = 9
	mustRegister(t, m, requestAt(b, 1, "T", "New"))
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	if routeOf(m, "T") == nil {
		t.Fatal("a stale unregister from the old connection removed the broker")
	}
	// Its mark (none was left: the request was stale) cannot refuse the new
	// connection's registrations either.
	mustRegister(t, m, requestAt(b, 2, "T"))
}

// An unregister mark lives while its connection is open: a close drops it.
func TestUnregisterMarksGoWithTheirConnection(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	_, unreg := orderedRequests(m, b, 1, 2)
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	if len(m.unregisterMarks) != 1 {
		t.Fatalf("%d unregister marks, want 1", len(m.unregisterMarks))
	}
	m.ConnectionsClosed([]ConnID{b.conn})
	if len(m.unregisterMarks) != 0 {
		t.Fatalf("%d unregister marks after the connection closed, want 0", len(m.unregisterMarks))
	}
}

// The marks are bounded: past MaxUnregisterMarks an applied unregister
// leaves none (the generation rule alone then applies).
func TestUnregisterMarksAreBounded(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	reqs := make([]UnregisterRequest, 0, MaxUnregisterMarks+10)
	for i := range MaxUnregisterMarks + 10 {
		req := b.unregisterRequest()
		req.BrokerAddr = "127.0.0.1:" + strconv.Itoa(10000+i)
		req.Generation, req.Conn, req.ArrivalSeq = 0, b.conn, uint64(i+1)
		reqs = append(reqs, req)
	}
	m.UnregisterBrokers(reqs)
	if n := len(m.unregisterMarks); n != MaxUnregisterMarks {
		t.Fatalf("%d unregister marks, want the bound %d", n, MaxUnregisterMarks)
	}
}

// An unregister applied after its connection's close (the worker took the
// close first) leaves no mark: nothing would ever drop it. The broker is
// not registered, so the request is applied, not judged stale.
func TestUnregisterOfAClosedConnectionLeavesNoMark(t *testing.T) {
	m := NewManager(Config{})
	_, unreg := orderedRequests(m, defaultMaster(), 1, 2)
	unreg.ConnOpen = func() bool { return false }
	m.UnregisterBrokers([]UnregisterRequest{unreg})
	if len(m.unregisterMarks) != 0 {
		t.Fatalf("%d unregister marks of a closed connection, want 0", len(m.unregisterMarks))
	}
}
