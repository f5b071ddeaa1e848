package namesrv

import (
	"fmt"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// ghostBroker is a broker whose JSON registration is about 4 MB, so it is
// still being decoded on the pool when the close of its connection has
// been handled on the event loop.
func ghostBroker() nstest.Broker { return brokerWithTopics("GhostTopic-%06d", 30_000) }

// waitRegistrationHandled waits until the server has finished the one
// registration it was sent: applied ("broker registered") or dropped.
func waitRegistrationHandled(t *testing.T, s *testServer) {
	t.Helper()
	eventually(t, "the registration is handled", func() error {
		if countLogged(s.hook, "broker registered")+countLogged(s.hook, "register broker dropped") > 0 {
			return nil
		}
		return errStillThere
	})
}

// mustLeaveNothing waits for the unregistration worker, then checks that
// no broker, topic or broker connection is left.
func mustLeaveNothing(t *testing.T, s *testServer) {
	t.Helper()
	// The close was queued before the registration finished; give the
	// worker a moment, then the state must be empty and stay so.
	eventually(t, "nothing left", func() error {
		if n := len(s.ns.routes.ClusterInfo().BrokerAddrTable); n != 0 {
			return fmt.Errorf("%d broker groups: %w", n, errStillThere)
		}
		if n := len(s.ns.routes.AllTopicList().TopicList); n != 0 {
			return fmt.Errorf("%d topics: %w", n, errStillThere)
		}
		if n := s.ns.brokers.len(); n != 0 {
			return fmt.Errorf("%d broker connections remembered: %w", n, errStillThere)
		}
		return nil
	})
	time.Sleep(200 * time.Millisecond)
	if n := len(s.ns.routes.AllTopicList().TopicList); n != 0 {
		t.Fatalf("%d topics came back after the connection closed", n)
	}
}

// TestGhostBrokerRegisterThenClose: a large REGISTER followed at once by a
// close used to leave the broker registered until its 120 s expiry (the
// close ran on the event loop before the registration was applied on the
// pool). A registration applied after its connection closed must not stand.
func TestGhostBrokerRegisterThenClose(t *testing.T) {
	s := startServer(t, nil)
	raw := dialRaw(t, s.addr())
	raw.send(ghostBroker().RegisterRequest())
	_ = raw.conn.Close()
	waitRegistrationHandled(t, s)
	mustLeaveNothing(t, s)
}

// TestGhostBrokerRegisterUnregisterClose: REGISTER, UNREGISTER and close on
// one socket left the broker registered ("broker unregistered" logged
// before "broker registered") and its connection in the broker-connection
// table.
func TestGhostBrokerRegisterUnregisterClose(t *testing.T) {
	s := startServer(t, nil)
	b := ghostBroker()
	raw := dialRaw(t, s.addr())
	raw.send(b.RegisterRequest())
	raw.send(remoting.NewRequest(remoting.UNREGISTER_BROKER, b.Identity(), nil))
	_ = raw.conn.Close()
	waitRegistrationHandled(t, s)
	mustLeaveNothing(t, s)
}

// TestBrokerConnectionForgottenOnClose: a broker connection that closes
// after its registration leaves no entry in the broker-connection table.
func TestBrokerConnectionForgottenOnClose(t *testing.T) {
	s := startServer(t, nil)
	raw := dialRaw(t, s.addr())
	resp := raw.invoke(nstest.BrokerAMaster.RegisterRequest(), 1)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if n := s.ns.brokers.len(); n != 1 {
		t.Fatalf("%d broker connections remembered, want 1", n)
	}
	_ = raw.conn.Close()
	mustLeaveNothing(t, s)
}
