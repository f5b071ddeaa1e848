package namesrv

import (
	"maps"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// listenAsBroker starts a remoting server that records every
// NOTIFY_MIN_BROKER_ID_CHANGE it receives.
func listenAsBroker(t *testing.T) (addr string, received <-chan *remoting.Command) {
	t.Helper()
	got := make(chan *remoting.Command, 16)
	server := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0"})
	server.Handle(remoting.NOTIFY_MIN_BROKER_ID_CHANGE, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		got <- req
		return nil
	})
	if err := server.Start(); err != nil {
		t.Fatalf("start broker listener: %v", err)
	}
	t.Cleanup(func() { _ = server.Shutdown(nstest.Context(t)) })
	return server.Addr().String(), got
}

// next waits for one notification; the deadline only bounds a broken test.
func next(t *testing.T, received <-chan *remoting.Command) *remoting.Command {
	t.Helper()
	select {
	case req := <-received:
		return req
	case <-time.After(10 * time.Second):
		t.Fatal("no NOTIFY_MIN_BROKER_ID_CHANGE arrived")
		return nil
	}
}

func TestNotifierDelivers(t *testing.T) {
	addr, received := listenAsBroker(t)
	logger, _ := logtest.NewNullLogger()
	n := newNotifier(logrus.NewEntry(logger))
	t.Cleanup(n.close)

	cases := []struct {
		name string
		send func()
		want map[string]string
	}{
		{"registration", func() {
			n.send([]route.MinBrokerIDChange{{BrokerName: "broker-a", Recipients: []string{addr},
				MinBrokerID: 0, MinBrokerAddr: "10.0.0.1:10911", HABrokerAddr: "10.0.0.1:10912"}})
		}, map[string]string{"minBrokerId": "0", "minBrokerAddr": "10.0.0.1:10911", "haBrokerAddr": "10.0.0.1:10912"}},
		{"removal", func() {
			n.sendRemoved([]route.RemovedBroker{
				{BrokerName: "quiet"}, // no change: nothing sent
				{BrokerName: "broker-a", MinBrokerIDChange: &route.MinBrokerIDChange{Recipients: []string{addr},
					MinBrokerID: 1, MinBrokerAddr: "10.0.0.2:10911", OfflineBrokerAddr: "10.0.0.1:10911"}},
			})
		}, map[string]string{"minBrokerId": "1", "minBrokerAddr": "10.0.0.2:10911", "offlineBrokerAddr": "10.0.0.1:10911"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.send()
			req := next(t, received)
			if !req.IsOneway() || !maps.Equal(req.ExtFields, tc.want) {
				t.Fatalf("one-way %v ext %v, want one-way with %v", req.IsOneway(), req.ExtFields, tc.want)
			}
		})
	}
}

// TestNotifierQueueFullDrops: a full queue drops with a rate-limited log
// line and send returns at once. The notifier is built without its sending goroutine, so
// its queue of one stays full.
func TestNotifierQueueFullDrops(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	n := newIdleNotifier(logrus.NewEntry(logger), 1)
	n.send([]route.MinBrokerIDChange{{BrokerName: "kept"}, {BrokerName: "dropped"}, {BrokerName: "dropped too"}})
	// One line for the first drop; the second, within the same second, is
	// held back (counted on the next line written: the warnings are
	// rate-limited, registrations from any peer cause them).
	entries := hook.AllEntries()
	if len(entries) != 1 || entries[0].Message != "notify queue full, min broker id change not sent" ||
		entries[0].Data["brokerName"] != "dropped" {
		t.Fatalf("log entries %v, want one drop line for the first event beyond the queue", entries)
	}
	if queued := (<-n.queue).change.BrokerName; queued != "kept" {
		t.Fatalf("queued %q, want the first event", queued)
	}
}

// TestNotifierSendFailureLogged: an unreachable broker costs a log line, and
// close waits until the queue is sent.
func TestNotifierSendFailureLogged(t *testing.T) {
	closedAddr := closedPort(t)
	logger, hook := logtest.NewNullLogger()
	n := newNotifier(logrus.NewEntry(logger))
	n.send([]route.MinBrokerIDChange{{Recipients: []string{closedAddr}}})
	n.close()
	if !logged(hook, logrus.WarnLevel, "notify min broker id change") {
		t.Fatalf("no warning for the failed send; entries %v", hook.AllEntries())
	}
}

// TestRegistrationNotifiesSlave: with notifyMinBrokerIdChanged, a master
// joining a group is announced to the slave already there (protocol.md 4.11).
func TestRegistrationNotifiesSlave(t *testing.T) {
	addr, received := listenAsBroker(t)
	s := startServer(t, func(cfg *config.Config) { cfg.NotifyMinBrokerIdChanged = true })
	slave := nstest.BrokerASlave
	slave.Addr = addr
	nstest.Register(t, s.client, slave)
	nstest.Register(t, nstest.NewClient(t, s.addr()), nstest.BrokerAMaster)
	req := next(t, received)
	want := map[string]string{"minBrokerId": "0", "minBrokerAddr": nstest.BrokerAMaster.Addr, "haBrokerAddr": nstest.BrokerAMaster.HAAddr}
	if !req.IsOneway() || !maps.Equal(req.ExtFields, want) {
		t.Fatalf("one-way %v ext %v, want %v", req.IsOneway(), req.ExtFields, want)
	}
}

// TestNotifierSendAfterCloseDoesNotPanic: an eviction scan that outlives the
// shutdown deadline may still hand over notifications after close.
func TestNotifierSendAfterCloseDoesNotPanic(t *testing.T) {
	logger, _ := logtest.NewNullLogger()
	n := newNotifier(logrus.NewEntry(logger))
	n.close()
	n.send([]route.MinBrokerIDChange{{BrokerName: "broker-a", Recipients: []string{"127.0.0.1:1"}}})
	n.close() // twice is fine too
}
