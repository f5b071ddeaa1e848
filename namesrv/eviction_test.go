package namesrv

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// TestScanNotActiveBrokers runs one scan at a time past one broker's timeout
// and within the other's: the first is removed and its connection closed,
// the second stays.
func TestScanNotActiveBrokers(t *testing.T) {
	s := startServer(t, nil)
	expiring := nstest.BrokerB
	expiring.TimeoutMillis = 60_000
	conn := dialRaw(t, s.addr())
	nstest.MustCode(t, conn.invoke(expiring.RegisterRequest(), 1), remoting.SUCCESS)
	nstest.Register(t, s.client, nstest.BrokerAMaster) // default timeout, 120 s

	scanNotActiveBrokers(s.ns.routes, s.ns.brokers, s.ns.notifier, s.ns.log, time.Now().Add(90*time.Second))

	if s.topicExists("TopicB") {
		t.Fatal("the broker past its 60 s timeout is still routed")
	}
	if !s.topicExists("TopicA") {
		t.Fatal("the broker within its 120 s timeout was removed")
	}
	if !logged(s.hook, logrus.WarnLevel, "broker expired: no registration or heartbeat within its timeout, removed") {
		t.Fatal("no log line for the expired broker")
	}
	if frame, err := conn.read(); !closedByPeer(err) {
		t.Fatalf("the expired broker's connection: read frame %v, err %v; want it closed by the server", frame, err)
	}
	// The client of the broker that stayed still talks on its connection.
	nstest.MustCode(t, s.call(t, remoting.GET_BROKER_CLUSTER_INFO, nil, nil), remoting.SUCCESS)
}

// TestEvictionJobSurvivesPanic runs the job on a nil connection registry, so each run that expires a broker panics when
// it closes the connection. The panic must be logged and the next run must
// still happen and expire the next broker.
func TestEvictionJobSurvivesPanic(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	routes := route.NewManager(route.Config{DefaultHeartbeatTimeout: route.DefaultHeartbeatTimeout})
	n := newNotifier(logrus.NewEntry(logger))
	t.Cleanup(n.close)
	job := newEvictionJob(routes, nil, n, time.Millisecond, time.Hour, time.Now, logrus.NewEntry(logger))
	job.start()
	t.Cleanup(func() { job.stop(context.Background()) })

	for round, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerB} {
		registerDirect(t, routes, b, 1)
		eventually(t, fmt.Sprintf("run %d expires %s and its panic is logged", round+1, b.Name), func() error {
			if _, ok := routes.PickupTopicRouteData(b.TopicNames()[0]); ok {
				return errStillThere
			}
			if n := countLogged(hook, "eviction run panicked; the next run goes on"); n < round+1 {
				return fmt.Errorf("%d panics logged", n)
			}
			return nil
		})
	}
}

// registerDirect registers b in routes without the wire, with a heartbeat
// timeout of timeoutMillis.
func registerDirect(t *testing.T, routes *route.Manager, b nstest.Broker, timeoutMillis int64) {
	t.Helper()
	registerDirectAt(t, routes, b, timeoutMillis, time.Now())
}

// registerDirectAt is registerDirect at a given time.
func registerDirectAt(t *testing.T, routes *route.Manager, b nstest.Broker, timeoutMillis int64, now time.Time) {
	t.Helper()
	body := &route.RegisterBrokerBody{TopicConfigSerializeWrapper: b.Wrapper()}
	_, _, err := routes.RegisterBroker(&route.RegisterBrokerRequest{ClusterName: b.Cluster, BrokerAddr: b.Addr,
		BrokerName: b.Name, BrokerID: b.ID, HeartbeatTimeoutMillis: &timeoutMillis, Body: body, FilterServersGiven: true}, now)
	if err != nil {
		t.Fatalf("register %s: %v", b.Name, err)
	}
}
