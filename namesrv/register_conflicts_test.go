package namesrv

import (
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
)

const (
	tookOverMessage = "register broker took the broker id over from a live broker (stateVersion not older)"
	ignoredMessage  = "register broker ignored: an older stateVersion than the broker id's live holder"
)

// startWithMaster starts a server with broker-a's master registered at the
// given stateVersion (its master epoch).
func startWithMaster(t *testing.T, epoch int64) (*testServer, nstest.Broker) {
	s := startServer(t, nil)
	master := nstest.BrokerAMaster
	master.Version.StateVersion = epoch
	nstest.Register(t, s.client, master)
	return s, master
}

// TestControllerFailoverOverTheWire: RocketMQ 5's controller-mode failover.
// The old master (epoch 1) is still connected when the new master registers
// broker-a id 0 at its own address with stateVersion 2: it is answered 0,
// the route points at it, and the takeover is logged and counted. The old
// master's next registration, still at epoch 1, is answered 0 without
// masterAddr, changes nothing, and is logged and counted as ignored.
func TestControllerFailoverOverTheWire(t *testing.T) {
	s, old := startWithMaster(t, 1)
	next := old
	next.Addr, next.HAAddr = "127.0.0.2:10911", "127.0.0.2:10912"
	next.Version.StateVersion = 2
	newConn := nstest.NewClient(t, s.addr())
	nstest.Register(t, newConn, next)
	if got := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicA", 0)).BrokerDatas[0].BrokerAddrs[0]; got != next.Addr {
		t.Fatalf("master of broker-a is %q after the failover, want the new master %q", got, next.Addr)
	}
	if !logged(s.hook, logrus.WarnLevel, tookOverMessage) {
		t.Fatal("the takeover was not logged")
	}
	old.Version.Counter++
	resp := nstest.Register(t, s.client, old)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if addr, ok := resp.ExtFields["masterAddr"]; ok && addr != "" {
		t.Fatalf("the ignored registration was told masterAddr %q", addr)
	}
	if got := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicA", 0)).BrokerDatas[0].BrokerAddrs[0]; got != next.Addr {
		t.Fatalf("the stale old master took id 0 back: %q", got)
	}
	if !logged(s.hook, logrus.WarnLevel, ignoredMessage) {
		t.Fatal("the ignored registration was not logged")
	}
	for outcome, want := range map[string]float64{metrics.ConflictTakenOver: 1, metrics.ConflictIgnored: 1} {
		if got := counterSum(t, s, "rocketmq_namesrv_broker_id_conflicts_total", "outcome", outcome); got != want {
			t.Errorf("broker_id_conflicts_total{outcome=%q} = %v, want %v", outcome, got, want)
		}
	}
}

// TestIgnoredRegistrationsLoggedRateLimited: a flood of stale registrations
// is answered 0 each time but logged far fewer times, with the count of the
// lines held back on the next one written.
func TestIgnoredRegistrationsLoggedRateLimited(t *testing.T) {
	s, holder := startWithMaster(t, 9)
	stale := holder
	stale.Addr, stale.Version.StateVersion = "127.0.0.3:10911", 1
	const flood = 300
	for i := range flood {
		stale.Version.Counter = int64(100 + i)
		nstest.MustCode(t, nstest.Register(t, s.client, stale), remoting.SUCCESS)
	}
	lines := 0
	for _, e := range s.hook.AllEntries() {
		if e.Message == ignoredMessage {
			lines++
		}
	}
	if lines == 0 || lines > flood/10 {
		t.Fatalf("%d lines for %d ignored registrations, want at least one and at most %d", lines, flood, flood/10)
	}
	if got := counterSum(t, s, "rocketmq_namesrv_broker_id_conflicts_total", "outcome", metrics.ConflictIgnored); got != flood {
		t.Fatalf("broker_id_conflicts_total{outcome=ignored_stale_version} = %v, want %d: every one counted", got, flood)
	}
}
