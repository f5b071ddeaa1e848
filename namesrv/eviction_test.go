package namesrv

import (
	"context"
	"errors"
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

// TestEvictionJobSurvivesPanic builds the cron job through startEviction on
// a nil connection registry, so each run that expires a broker panics when
// it closes the connection. The panic must be logged and the next run must
// still happen and expire the next broker.
func TestEvictionJobSurvivesPanic(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	routes := route.NewManager(route.Config{DefaultHeartbeatTimeout: route.DefaultHeartbeatTimeout})
	n := newNotifier(logrus.NewEntry(logger))
	t.Cleanup(n.close)
	job := startEviction(routes, nil, n, time.Millisecond, logrus.NewEntry(logger), nil)
	t.Cleanup(func() { job.stop(context.Background()) })

	for round, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerB} {
		registerDirect(t, routes, b, 1)
		eventually(t, fmt.Sprintf("run %d expires %s and its panic is logged", round+1, b.Name), func() error {
			if _, ok := routes.PickupTopicRouteData(b.TopicNames()[0]); ok {
				return errStillThere
			}
			if n := countLogged(hook, "panic"); n < round+1 {
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
	body := &route.RegisterBrokerBody{TopicConfigSerializeWrapper: b.Wrapper()}
	_, _, err := routes.RegisterBroker(&route.RegisterBrokerRequest{ClusterName: b.Cluster, BrokerAddr: b.Addr,
		BrokerName: b.Name, BrokerID: b.ID, HeartbeatTimeoutMillis: &timeoutMillis, Body: body, FilterServersGiven: true}, time.Now())
	if err != nil {
		t.Fatalf("register %s: %v", b.Name, err)
	}
}

func TestCronLoggerFields(t *testing.T) {
	cases := []struct {
		name string
		kv   []interface{}
		want logrus.Fields
	}{
		{"pairs", []interface{}{"entry", 1, "now", "x"}, logrus.Fields{"entry": 1, "now": "x"}},
		{"odd count drops the lone key", []interface{}{"entry", 1, "dangling"}, logrus.Fields{"entry": 1}},
		{"non-string key", []interface{}{7, true}, logrus.Fields{"7": true}},
		{"none", nil, logrus.Fields{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logger, hook := logtest.NewNullLogger()
			logger.SetLevel(logrus.DebugLevel)
			l := cronLogger{logrus.NewEntry(logger)}
			l.Info("tick", tc.kv...)
			l.Error(errors.New("boom"), "panic", tc.kv...)
			entries := hook.AllEntries()
			if len(entries) != 2 || entries[0].Level != logrus.DebugLevel || entries[1].Level != logrus.ErrorLevel {
				t.Fatalf("entries %v, want one debug and one error", entries)
			}
			for key, value := range tc.want {
				if entries[0].Data[key] != value || entries[1].Data[key] != value {
					t.Fatalf("field %s: %v / %v, want %v", key, entries[0].Data[key], entries[1].Data[key], value)
				}
			}
			if len(entries[0].Data) != len(tc.want) || entries[1].Data[logrus.ErrorKey] == nil {
				t.Fatalf("fields %v and %v, want %v (and the error on the second)", entries[0].Data, entries[1].Data, tc.want)
			}
		})
	}
}

// TestEveryKeepsMilliseconds: scanNotActiveBrokerInterval is in milliseconds,
// and cron's own "@every" would round 1500 ms down to 1 s and 100 ms up to 1 s.
func TestEveryKeepsMilliseconds(t *testing.T) {
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, d := range []time.Duration{100 * time.Millisecond, 1500 * time.Millisecond, 5 * time.Second} {
		if got := every(d).Next(start); got.Sub(start) != d {
			t.Errorf("every(%s).Next = +%s", d, got.Sub(start))
		}
	}
}
