package route

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// checkInvariants verifies one snapshot: every queue data names a group
// (no route points at a broker that is gone), every topic is routable, and
// every group member is a live broker of the group's cluster.
func checkInvariants(s *snapshot) error {
	for topic, entry := range s.topics.all() {
		for _, qd := range entry.queueDatas {
			if _, ok := s.groups.get(qd.BrokerName); !ok {
				return fmt.Errorf("topic %s names gone broker %s", topic, qd.BrokerName)
			}
		}
		if s.routeOf(topic) == nil {
			return fmt.Errorf("topic %s has no route", topic)
		}
	}
	for name, group := range s.groups.all() {
		for id, addr := range group.data.BrokerAddrs {
			if _, ok := s.live.get(brokerAddrInfo{cluster: group.data.Cluster, addr: addr}); !ok {
				return fmt.Errorf("group %s id %d at %s is not live", name, id, addr)
			}
		}
	}
	return nil
}

// TestConcurrentWritersAndReadersKeepInvariants runs registrations,
// unregistrations, connection closes, expiry scans, heartbeats and route
// queries at once (run it with -race) and checks the invariants on the
// snapshots readers see and at the end.
func TestConcurrentWritersAndReadersKeepInvariants(t *testing.T) {
	m := NewManager(Config{SupportActingMaster: true})
	const brokers, rounds = 8, 150
	broker := func(i int) brokerInfo {
		return brokerInfo{cluster: fmt.Sprintf("c%d", i%2), name: fmt.Sprintf("b%d", i), addr: fmt.Sprintf("10.0.0.%d:1", i),
			id: 0, acting: boolPtr(true), timeoutMillis: int64Ptr(30_000)}
	}
	topicsOf := func(i int) []string {
		return []string{fmt.Sprintf("T%d", i), fmt.Sprintf("T%d", (i+1)%brokers), "shared"}
	}
	var clock sync.Mutex
	now := testNow
	tick := func() time.Time {
		clock.Lock()
		defer clock.Unlock()
		now = now.Add(time.Second)
		return now
	}
	var writers, readers sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 16)
	for i := 0; i < brokers; i++ {
		writers.Add(1)
		go func(i int) {
			defer writers.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			b := broker(i)
			for r := 0; r < rounds; r++ {
				b.conn = ConnID(i*1000 + r/10 + 1)
				b.dv.Counter = int64(r / 5)
				req := b.request(withBaseTopic(4, topicsOf(i)...)...)
				req.BodyFingerprint = uint64(r/5 + 1)
				if _, _, err := m.RegisterBroker(req, tick()); err != nil {
					errs <- err
					return
				}
				switch rng.IntN(6) {
				case 0:
					req := b.unregisterRequest()
					req.Generation = m.Generation(b.cluster, b.addr)
					m.UnregisterBrokers([]UnregisterRequest{req})
				case 1:
					m.ConnectionClosed(b.conn)
				case 2:
					m.Heartbeat(b.cluster, b.addr, tick())
				case 3:
					m.WipeWritePerm(b.name)
				}
			}
		}(i)
	}
	writers.Add(1)
	go func() {
		defer writers.Done()
		for r := 0; r < rounds; r++ {
			m.ScanExpired(tick())
		}
	}()
	for g := 0; g < 3; g++ {
		readers.Add(1)
		go func(g int) {
			defer readers.Done()
			buf := make([]byte, 0, 4096)
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				topic := fmt.Sprintf("T%d", n%brokers)
				buf, _ = m.RouteJSON(buf[:0], topic, RouteQuery{Standard: n%2 == 0})
				m.PickupTopicRouteData("shared")
				m.ClusterInfo()
				if n%50 == 0 {
					if err := checkInvariants(m.current.Load()); err != nil {
						errs <- err
						return
					}
				}
			}
		}(g)
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := checkInvariants(m.current.Load()); err != nil {
		t.Fatal(err)
	}
	// every broker still live has its topics routable
	s := m.current.Load()
	for i := 0; i < brokers; i++ {
		b := broker(i)
		if _, live := s.live.get(brokerAddrInfo{cluster: b.cluster, addr: b.addr}); !live {
			continue
		}
		for _, topic := range topicsOf(i) {
			if s.routeOf(topic) == nil {
				t.Fatalf("live broker %s: topic %s not routable", b.name, topic)
			}
		}
	}
}
