package namesrv

import (
	"fmt"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// registerThenUnregister sends b's registration and its UNREGISTER_BROKER
// back to back on raw, which stays open, and reads both answers: the
// unregister is answered on the event loop while the registration is still
// being decoded on the pool.
func registerThenUnregister(t *testing.T, raw *rawConn, b nstest.Broker) {
	t.Helper()
	reg := b.RegisterRequest()
	reg.Opaque = 11
	unreg := remoting.NewRequest(remoting.UNREGISTER_BROKER, b.Identity(), nil)
	unreg.Opaque = 12
	raw.send(reg)
	raw.send(unreg)
	for range 2 {
		resp, err := raw.read()
		if err != nil {
			t.Fatalf("read answer: %v", err)
		}
		if resp.Opaque == unreg.Opaque {
			nstest.MustCode(t, resp, remoting.SUCCESS)
		}
	}
}

// mustStayUnregistered checks that no broker group or topic is left, now
// and a moment later (the unregistration worker has run by then).
func mustStayUnregistered(t *testing.T, s *testServer) {
	t.Helper()
	check := func() error {
		if n := len(s.ns.routes.ClusterInfo().BrokerAddrTable); n != 0 {
			return fmt.Errorf("%d broker groups: %w", n, errStillThere)
		}
		if n := len(s.ns.routes.AllTopicList().TopicList); n != 0 {
			return fmt.Errorf("%d topics: %w", n, errStillThere)
		}
		return nil
	}
	eventually(t, "the broker unregistered", check)
	time.Sleep(200 * time.Millisecond)
	if err := check(); err != nil {
		t.Fatalf("the broker came back after its unregister: %v", err)
	}
}

// TestGhostBrokerRegisterUnregisterOpenConnection: REGISTER then UNREGISTER
// on one connection that stays open left the broker registered until its
// expiry, because the registration was applied on the pool after the
// unregister. The peer's last word was "unregister": it must win.
func TestGhostBrokerRegisterUnregisterOpenConnection(t *testing.T) {
	s := startServer(t, nil)
	raw := dialRaw(t, s.addr())
	registerThenUnregister(t, raw, ghostBroker())
	mustStayUnregistered(t, s)
}

// TestRegisterAppliedBeforeTheUnregisterWorker: the other interleaving of
// REGISTER then UNREGISTER on an open connection, made certain by stopping
// the worker: the registration is applied first, with a generation newer
// than the one the unregister captured, and the unregister still removes
// the broker because it arrived later on that connection.
func TestRegisterAppliedBeforeTheUnregisterWorker(t *testing.T) {
	s := startServer(t, nil)
	s.ns.unregister.stop()
	raw := dialRaw(t, s.addr())
	registerThenUnregister(t, raw, ghostBroker())
	waitRegistrationHandled(t, s)
	if n := len(s.ns.routes.ClusterInfo().BrokerAddrTable); n != 1 {
		t.Fatalf("%d broker groups before the worker ran, want the registered one", n)
	}
	s.ns.unregister.applyPending()
	mustStayUnregistered(t, s)
}

// TestGhostBrokerReRegisterUnregisterOpenConnection: the same for a broker
// already registered on that connection, whose new, large registration
// replaces its entry (and generation) after the unregister arrived.
func TestGhostBrokerReRegisterUnregisterOpenConnection(t *testing.T) {
	s := startServer(t, nil)
	raw := dialRaw(t, s.addr())
	first := nstest.BrokerAMaster
	nstest.MustCode(t, raw.invoke(first.RegisterRequest(), 1), remoting.SUCCESS)
	registerThenUnregister(t, raw, ghostBroker())
	mustStayUnregistered(t, s)
	// A registration sent after the unregister stands again.
	nstest.MustCode(t, raw.invoke(first.RegisterRequest(), 2), remoting.SUCCESS)
	if n := len(s.ns.routes.ClusterInfo().BrokerAddrTable); n != 1 {
		t.Fatalf("%d broker groups after registering again, want 1", n)
	}
}

// TestUnregisterThenCloseLeavesNoMark: an UNREGISTER then a close leave no
// unregister mark behind when the worker takes both in one batch, which
// applies the close first. The broker is not registered, so the unregister
// is applied, not judged stale. The server's worker is stopped so the test
// applies that batch itself.
func TestUnregisterThenCloseLeavesNoMark(t *testing.T) {
	s := startServer(t, nil)
	s.ns.unregister.stop()
	raw := dialRaw(t, s.addr())
	b := nstest.BrokerAMaster
	nstest.MustCode(t, raw.invoke(remoting.NewRequest(remoting.UNREGISTER_BROKER, b.Identity(), nil), 1), remoting.SUCCESS)
	_ = raw.conn.Close()
	eventually(t, "the close is queued", func() error {
		s.ns.unregister.mu.Lock()
		defer s.ns.unregister.mu.Unlock()
		if len(s.ns.unregister.closed) == 0 {
			return errStillThere
		}
		return nil
	})
	s.ns.unregister.applyPending()
	if n := s.ns.routes.IndexSizes().UnregisterMarks; n != 0 {
		t.Fatalf("%d unregister marks left after the connection closed, want 0", n)
	}
}
