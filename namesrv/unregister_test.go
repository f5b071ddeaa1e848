package namesrv

import (
	"math"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// idleWorker is an unregistration worker on s's tables that is never
// started: the test applies its queue with applyPending, so it knows when
// the work is done.
func idleWorker(s *testServer, capacity int) *unregisterWorker {
	return newUnregisterWorker(s.ns.routes, capacity, s.ns.notifier, s.ns.brokers, s.ns.log.WithField("component", "unregister"))
}

func unregisterRequest(b nstest.Broker, generation uint64) route.UnregisterRequest {
	return route.UnregisterRequest{ClusterName: b.Cluster, BrokerAddr: b.Addr, BrokerName: b.Name, BrokerID: b.ID, Generation: generation}
}

func TestUnregisterQueueBound(t *testing.T) {
	cases := []struct {
		name     string
		capacity int
		accepted int
	}{
		{"capacity 1", 1, 1},
		{"capacity 3", 3, 3},
		{"0 means the Java default 3000", 0, 3000},
	}
	logger, _ := logtest.NewNullLogger()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newUnregisterWorker(route.NewManager(route.Config{}), tc.capacity, nil, newBrokerConns(), logrus.NewEntry(logger))
			for i := range tc.accepted {
				if !w.submit(unregisterRequest(nstest.BrokerAMaster, 0)) {
					t.Fatalf("request %d of %d refused", i+1, tc.accepted)
				}
			}
			if w.submit(unregisterRequest(nstest.BrokerAMaster, 0)) {
				t.Fatalf("request %d accepted beyond the capacity", tc.accepted+1)
			}
		})
	}
}

// TestUnregisterQueueFullAnswer: a full queue answers code 1 with no remark
// (protocol.md 2.5). The server's worker is stopped first, so nothing drains
// the queue of one.
func TestUnregisterQueueFullAnswer(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.UnRegisterBrokerQueueCapacity = 1 })
	s.ns.unregister.stop()
	nstest.MustCode(t, s.call(t, remoting.UNREGISTER_BROKER, nstest.BrokerAMaster.Identity(), nil), remoting.SUCCESS)
	full := s.call(t, remoting.UNREGISTER_BROKER, nstest.BrokerB.Identity(), nil)
	if full.Code != remoting.SYSTEM_ERROR || full.Remark != "" {
		t.Fatalf("code %d remark %q, want 1 without remark", full.Code, full.Remark)
	}
	if !logged(s.hook, logrus.WarnLevel, "unregister queue full, request dropped") {
		t.Fatal("no log line for the dropped request")
	}
}

func TestUnregisterMissingBrokerID(t *testing.T) {
	s := startServer(t, nil)
	ext := nstest.BrokerAMaster.Identity()
	delete(ext, "brokerId")
	mustRefuse(t, s.call(t, remoting.UNREGISTER_BROKER, ext, nil), "brokerId")
}

// TestStaleUnregisterIgnored: an UNREGISTER_BROKER whose generation was
// captured before the broker registered again must not remove it
// (apache/rocketmq#11043); one with the current generation does.
func TestStaleUnregisterIgnored(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	stale := s.ns.routes.Generation(nstest.BrokerAMaster.Cluster, nstest.BrokerAMaster.Addr)
	restarted := nstest.BrokerAMaster
	restarted.Version = route.DataVersion{Counter: 2, Timestamp: nstest.BrokerAMaster.Version.Timestamp + 1}
	nstest.Register(t, s.client, restarted)
	current := s.ns.routes.Generation(nstest.BrokerAMaster.Cluster, nstest.BrokerAMaster.Addr)
	if current == stale {
		t.Fatalf("generation %d unchanged by a registration with a new data version", current)
	}

	w := idleWorker(s, 0)
	w.submit(unregisterRequest(nstest.BrokerAMaster, stale))
	w.applyPending()
	if !s.topicExists("TopicA") {
		t.Fatal("a stale unregister removed the broker that registered again")
	}
	w.submit(unregisterRequest(nstest.BrokerAMaster, current))
	w.applyPending()
	if s.topicExists("TopicA") {
		t.Fatal("an unregister with the current generation left the broker")
	}
}

// TestUnregisterWorkerStopAppliesQueue: stop drains what was queued.
func TestUnregisterWorkerStopAppliesQueue(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	w := idleWorker(s, 0)
	w.start()
	w.submit(unregisterRequest(nstest.BrokerAMaster, route.UnfencedGeneration))
	w.stop()
	if s.topicExists("TopicA") {
		t.Fatal("a request queued before stop was not applied")
	}
}

// TestConnectionCloseRemovesItsBrokersOnly: each broker registers on its own
// connection; closing one removes that broker and no other.
func TestConnectionCloseRemovesItsBrokersOnly(t *testing.T) {
	s := startServer(t, nil)
	closing := remoting.NewClient(s.addr(), remoting.ClientConfig{})
	nstest.Register(t, closing, nstest.BrokerAMaster)
	nstest.Register(t, nstest.NewClient(t, s.addr()), nstest.BrokerB)
	if err := closing.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	eventually(t, "broker-a removed after its connection closed", func() error {
		if s.topicExists("TopicA") {
			return errStillThere
		}
		return nil
	})
	if !s.topicExists("TopicB") {
		t.Fatal("broker-b was removed with broker-a's connection")
	}
	brokers, _ := routeBrokerNames(nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicTest", 479)))
	if len(brokers) != 1 || brokers[0] != "broker-b" {
		t.Fatalf("TopicTest brokers %v, want broker-b only", brokers)
	}
	eventually(t, "removal logged", func() error {
		if !logged(s.hook, logrus.InfoLevel, "broker connection closed, broker removed") {
			return errStillThere
		}
		return nil
	})
}

// TestBrokerHousekeeping_OnChannelClose (protocol.md 9.10): the close of a
// connection that registered nothing removes nothing and does not fail.
func TestBrokerHousekeeping_OnChannelClose(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	w := idleWorker(s, 0)
	w.connectionClosed(route.ConnID(math.MaxUint64), "")
	w.connectionClosed(route.ConnID(0), "127.0.0.1:1")
	w.applyPending()
	if !s.topicExists("TopicA") || !s.topicExists("TopicTest") {
		t.Fatal("closing connections that registered nothing removed a broker")
	}
	if countLogged(s.hook, "broker connection closed, broker removed") != 0 {
		t.Fatal("a removal was logged")
	}
}
