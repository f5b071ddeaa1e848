package namesrv

import (
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// linesAbout lists the messages at info level or above that name addr.
func linesAbout(hook *logtest.Hook, addr string) []string {
	var lines []string
	for _, e := range hook.AllEntries() {
		if e.Level <= logrus.InfoLevel && e.Data["brokerAddr"] == addr {
			lines = append(lines, e.Message)
		}
	}
	return lines
}

// TestEachBrokerEventIsLoggedOnce reproduces an operator trap of issue 13:
// a stale UNREGISTER_BROKER was logged "stale unregister ignored" and then
// "broker unregistered", and each removal was logged two or three times by
// different components (route, unregister, eviction). Now every event is one
// line at info or above, saying what happened.
func TestEachBrokerEventIsLoggedOnce(t *testing.T) {
	s := startServer(t, nil)
	broker := nstest.BrokerAMaster
	expectOne := func(event, want string) {
		t.Helper()
		lines := linesAbout(s.hook, broker.Addr)
		if len(lines) != 1 || !strings.Contains(lines[0], want) {
			t.Errorf("%s: logged %q, want one line %q", event, lines, want)
		}
		s.hook.Reset()
	}

	nstest.Register(t, s.client, broker)
	expectOne("registration", "broker registered")

	stale := s.ns.routes.Generation(broker.Cluster, broker.Addr)
	again := broker
	again.Version = route.DataVersion{Counter: 2, Timestamp: broker.Version.Timestamp + 1}
	nstest.Register(t, s.client, again)
	s.hook.Reset()
	w := idleWorker(s, 0)
	w.submit(unregisterRequest(broker, stale))
	w.applyPending()
	expectOne("stale unregister", "stale unregister ignored")

	w.submit(unregisterRequest(broker, s.ns.routes.Generation(broker.Cluster, broker.Addr)))
	w.applyPending()
	expectOne("unregister", "broker unregistered")

	closing := remoting.NewClient(s.addr(), remoting.ClientConfig{})
	nstest.Register(t, closing, broker)
	s.hook.Reset()
	if err := closing.Close(); err != nil {
		t.Fatal(err)
	}
	// The worker removes the broker and then logs it: wait for both, or
	// the check below can run between the two.
	eventually(t, "the broker leaves with its connection", func() error {
		if s.topicExists("TopicA") || len(linesAbout(s.hook, broker.Addr)) == 0 {
			return errStillThere
		}
		return nil
	})
	expectOne("connection close", "broker connection closed, broker removed")

	nstest.Register(t, s.client, broker)
	s.hook.Reset()
	scanNotActiveBrokers(s.ns.routes, s.ns.brokers, s.ns.notifier, s.ns.log, time.Now().Add(200*time.Second))
	expectOne("expiry", "broker expired")
}
