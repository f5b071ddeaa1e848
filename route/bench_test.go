package route

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Benchmarks mirroring the Java JMH workloads of protocol.md 9.16, plus the
// single operations the issue names. Run with -benchmem; the mixed ones also
// report reader latency percentiles (p50-ns, p99-ns).

// randomTopicNames returns n names of 32 random letters plus an index, as
// the JMH benchmarks use.
func randomTopicNames(rng *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	names := make([]string, n)
	buf := make([]byte, 32)
	for i := range names {
		for j := range buf {
			buf[j] = letters[rng.IntN(len(letters))]
		}
		names[i] = string(buf) + strconv.Itoa(i)
	}
	return names
}

// topicTableOf is a 10,000-topic table (8 queues, perm 6).
func topicTableOf(names []string) map[string]TopicConfig {
	table := make(map[string]TopicConfig, len(names))
	for _, name := range names {
		table[name] = topicConfig(name, 8, 6)
	}
	return table
}

func requestWithTable(b brokerInfo, table map[string]TopicConfig, fingerprint uint64) *RegisterBrokerRequest {
	return &RegisterBrokerRequest{
		ClusterName: b.cluster, BrokerAddr: b.addr, BrokerName: b.name, HAServerAddr: b.ha, BrokerID: b.id,
		Body: &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
			DataVersion: b.dv, TopicConfigTable: table}, FilterServerList: []string{}},
		FilterServersGiven: true, Conn: b.conn, BodyFingerprint: fingerprint,
	}
}

// latencies collects per-operation durations of concurrent readers.
type latencies struct {
	mu      sync.Mutex
	samples []int64
}

func (l *latencies) add(local []int64) {
	l.mu.Lock()
	l.samples = append(l.samples, local...)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B) {
	if len(l.samples) == 0 {
		return
	}
	slices.Sort(l.samples)
	at := func(q float64) float64 { return float64(l.samples[int(q*float64(len(l.samples)-1))]) }
	b.ReportMetric(at(0.50), "p50-ns")
	b.ReportMetric(at(0.99), "p99-ns")
}

// routeBench is the GetRouteInfoBenchmark world: 4 clusters x 8 brokers,
// 10,000 topics per cluster. Java's benchmark gives the 8 brokers the same
// names in every cluster, so that its registrations overwrite each other's
// addresses; here a broker id held by a live broker refuses the next one
// (route/README), so every broker has a name and an address of its own. A
// topic's route has the same 8 broker datas either way.
type routeBench struct {
	m       *Manager
	topics  []string
	brokers []brokerInfo
	tables  []map[string]TopicConfig
}

func newRouteBench(b *testing.B) *routeBench {
	rng := rand.New(rand.NewPCG(1, 2))
	w := &routeBench{m: NewManager(Config{}), topics: randomTopicNames(rng, 40_000)}
	for c := 0; c < 4; c++ {
		w.tables = append(w.tables, topicTableOf(w.topics[c*10_000:(c+1)*10_000]))
		for k := 0; k < 8; k++ {
			br := brokerInfo{cluster: fmt.Sprintf("Default-Cluster-%d", c), name: fmt.Sprintf("Default-Broker-%d-%d", c, k),
				addr: "127.0.0.1:" + strconv.Itoa(5000+c*8+k), id: 0, conn: ConnID(c*8 + k + 1), dv: DataVersion{Counter: 1}}
			w.brokers = append(w.brokers, br)
			mustRegister(b, w.m, requestWithTable(br, w.tables[c], 0))
		}
	}
	warmRoutes(w.m, w.topics)
	return w
}

// warmRoutes fills the encoded-fragment caches once, so the timed part
// measures steady state.
func warmRoutes(m *Manager, topics []string) {
	buf := make([]byte, 0, 8192)
	for _, topic := range topics {
		buf, _ = m.RouteJSON(buf[:0], topic, RouteQuery{Standard: true})
	}
}

// readRoutes runs 4 readers of random routes for b.N lookups in all and
// records their latency.
func (w *routeBench) readRoutes(b *testing.B) {
	var lat latencies
	b.SetParallelism(max(1, 4/runtimeProcs()))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
		buf := make([]byte, 0, 8192)
		local := make([]int64, 0, 1024)
		for pb.Next() {
			topic := w.topics[rng.IntN(len(w.topics))]
			start := time.Now()
			buf, _ = w.m.RouteJSON(buf[:0], topic, RouteQuery{Standard: true})
			local = append(local, int64(time.Since(start)))
		}
		lat.add(local)
	})
	b.StopTimer()
	lat.report(b)
}

func runtimeProcs() int { return max(1, testingProcs) }

// testingProcs is GOMAXPROCS when the benchmarks start.
var testingProcs = func() int { return numProcs() }()

// BenchmarkGetRouteInfo mirrors GetRouteInfoBenchmark: 4 readers pick up
// random routes while the 32 brokers re-register (new DataVersion each time)
// every 0-99 ms; "nowriters" is the same lookup without the storm.
func BenchmarkGetRouteInfo(b *testing.B) {
	w := newRouteBench(b)
	b.Run("nowriters", func(b *testing.B) {
		b.ReportAllocs()
		w.readRoutes(b)
	})
	b.Run("storm", func(b *testing.B) {
		b.ReportAllocs()
		stop := make(chan struct{})
		var writers sync.WaitGroup
		var registrations atomic.Int64
		for i := range w.brokers {
			writers.Add(1)
			go func(br brokerInfo, table map[string]TopicConfig) {
				defer writers.Done()
				rng := rand.New(rand.NewPCG(uint64(br.conn), 4))
				timer := time.NewTimer(0)
				defer timer.Stop()
				for {
					br.dv.Counter++
					if _, _, err := w.m.RegisterBroker(requestWithTable(br, table, 0), time.Now()); err != nil {
						panic(err)
					}
					registrations.Add(1)
					timer.Reset(time.Duration(rng.IntN(100)) * time.Millisecond)
					select {
					case <-stop:
						return
					case <-timer.C:
					}
				}
			}(w.brokers[i], w.tables[i/8])
		}
		w.readRoutes(b)
		close(stop)
		writers.Wait()
		b.ReportMetric(float64(registrations.Load()), "registrations")
	})
}

// BenchmarkRouteJSONNoWriters is one route pick-up (encoded bytes) and one
// PickupTopicRouteData with nothing else running.
func BenchmarkRouteJSONNoWriters(b *testing.B) {
	w := newRouteBench(b)
	b.Run("RouteJSON", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 8192)
		for i := 0; b.Loop(); i++ {
			buf, _ = w.m.RouteJSON(buf[:0], w.topics[i%len(w.topics)], RouteQuery{Standard: true})
		}
	})
	b.Run("PickupTopicRouteData", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			w.m.PickupTopicRouteData(w.topics[i%len(w.topics)])
		}
	})
}

// BenchmarkRegisterBroker mirrors RegisterBrokerBenchmark: 32 brokers
// (DefaultBroker<k>, cluster DefaultCluster<k>, the topics of cluster k/8)
// register as fast as possible, each call with a new DataVersion, while 4
// readers pick up routes; reports the readers' latency too.
func BenchmarkRegisterBroker(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	topics := randomTopicNames(rng, 40_000)
	tables := make([]map[string]TopicConfig, 4)
	for c := range tables {
		tables[c] = topicTableOf(topics[c*10_000 : (c+1)*10_000])
	}
	m := NewManager(Config{})
	brokers := make([]brokerInfo, 32)
	counters := make([]atomic.Int64, 32)
	for k := range brokers {
		brokers[k] = brokerInfo{cluster: fmt.Sprintf("DefaultCluster%d", k), name: fmt.Sprintf("DefaultBroker%d", k),
			addr: fmt.Sprintf("127.0.0.1:500%d", k), ha: fmt.Sprintf("127.0.0.1:400%d", k), conn: ConnID(k + 1)}
		mustRegister(b, m, requestWithTable(brokers[k], tables[k/8], 0))
	}
	warmRoutes(m, topics)
	stop := make(chan struct{})
	var lat latencies
	var readers sync.WaitGroup
	const maxSamples = 1_000_000 // per reader, allocated before timing
	for r := 0; r < 4; r++ {
		readers.Add(1)
		local := make([]int64, 0, maxSamples)
		go func(r int) {
			defer readers.Done()
			rrng := rand.New(rand.NewPCG(uint64(r), 7))
			buf := make([]byte, 0, 8192)
			for {
				select {
				case <-stop:
					lat.add(local)
					return
				default:
				}
				start := time.Now()
				buf, _ = m.RouteJSON(buf[:0], topics[rrng.IntN(len(topics))], RouteQuery{Standard: true})
				if len(local) < maxSamples {
					local = append(local, int64(time.Since(start)))
				}
			}
		}(r)
	}
	var calls atomic.Int64
	b.ReportAllocs()
	b.SetParallelism(max(1, 32/runtimeProcs()))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k := int(calls.Add(1) % 32)
			br := brokers[k]
			br.dv.Counter = counters[k].Add(1)
			if _, _, err := m.RegisterBroker(requestWithTable(br, tables[k/8], 0), time.Now()); err != nil {
				panic(err)
			}
		}
	})
	b.StopTimer()
	close(stop)
	readers.Wait()
	lat.report(b)
}

// BenchmarkRegister10kTopics registers one broker with 10,000 topics:
// "changed" carries a new DataVersion each time (every topic compared),
// "unchanged" the same version and body fingerprint (the periodic case).
func BenchmarkRegister10kTopics(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 9))
	table := topicTableOf(randomTopicNames(rng, 10_000))
	br := defaultMaster()
	b.Run("changed", func(b *testing.B) {
		m := NewManager(Config{})
		mustRegister(b, m, requestWithTable(br, table, 1))
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			br.dv.Counter++
			mustRegister(b, m, requestWithTable(br, table, uint64(i+2)))
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		m := NewManager(Config{})
		req := requestWithTable(br, table, 1)
		mustRegister(b, m, req)
		b.ReportAllocs()
		for b.Loop() {
			mustRegister(b, m, req)
		}
	})
}

// BenchmarkHeartbeat is one BROKER_HEARTBEAT among 1,000 live brokers.
func BenchmarkHeartbeat(b *testing.B) {
	m := NewManager(Config{})
	for i := 0; i < 1000; i++ {
		br := defaultMaster().withName(fmt.Sprintf("b%d", i)).withAddr(fmt.Sprintf("10.0.%d.%d:1", i/256, i%256))
		registerNormal(&testing.T{}, m, br, "T")
	}
	br := defaultMaster().withAddr("10.0.1.7:1")
	b.ReportAllocs()
	for b.Loop() {
		m.Heartbeat(br.cluster, br.addr, testNow)
	}
}

// expiryWorld has 10,000 live brokers (100 clusters x 100 names), of which
// 1,000 were last heard from at testNow and the rest 60 s later.
func expiryWorld(b *testing.B) (*Manager, []brokerInfo) {
	m := NewManager(Config{})
	var stale []brokerInfo
	for i := 0; i < 10_000; i++ {
		br := brokerInfo{cluster: fmt.Sprintf("c%d", i%100), name: fmt.Sprintf("b%d", i),
			addr: fmt.Sprintf("10.%d.%d.%d:1", i/65536, i/256%256, i%256), conn: ConnID(i + 1), dv: DataVersion{Counter: 1}}
		at := testNow.Add(60 * time.Second)
		if i%10 == 0 {
			at = testNow
			stale = append(stale, br)
		}
		req := br.request(topicConfig(fmt.Sprintf("t%d", i), 4, 6), topicConfig("shared", 4, 6))
		if _, _, err := m.RegisterBroker(req, at); err != nil {
			b.Fatal(err)
		}
	}
	return m, stale
}

// BenchmarkExpiryScan finds the 1,000 expired of 10,000 live brokers
// ("find": the deadline wheel alone, what the scan costs when it decides)
// and removes them with all their routes ("scanAndRemove": ScanExpired).
func BenchmarkExpiryScan(b *testing.B) {
	m, stale := expiryWorld(b)
	scanAt := testNow.Add(DefaultHeartbeatTimeout + time.Millisecond).UnixMilli()
	b.Run("find", func(b *testing.B) {
		out := make([]*liveBroker, 0, 1000)
		b.ReportAllocs()
		for b.Loop() {
			m.mu.Lock()
			out = m.expiry.collect(scanAt, out[:0])
			b.StopTimer()
			if len(out) != 1000 {
				b.Fatalf("found %d expired", len(out))
			}
			for _, entry := range out {
				m.expiry.file(entry)
			}
			m.mu.Unlock()
			b.StartTimer()
		}
	})
	b.Run("scanAndRemove", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			removed := m.ScanExpired(time.UnixMilli(scanAt))
			b.StopTimer()
			if len(removed) != 1000 {
				b.Fatalf("removed %d", len(removed))
			}
			for i, br := range stale {
				req := br.request(topicConfig(fmt.Sprintf("t%d", i*10), 4, 6), topicConfig("shared", 4, 6))
				if _, _, err := m.RegisterBroker(req, testNow); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
	})
}
