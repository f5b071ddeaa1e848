package route

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// Sizes of the scale benchmarks: the layout of nsbench scale (100 clusters
// of 10 brokers, 1,000 topics per cluster on all 10, 8 queues).
const (
	scaleClusters = 100
	scaleBrokers  = 10
	scaleTopics   = 1000
	scaleExpire   = 100
)

// scaleWorld registers the scale layout; the brokers of the first
// scaleExpire/scaleBrokers clusters were last heard from at testNow, the
// others 60 s later.
func scaleWorld(b testing.TB) (*Manager, []brokerInfo) {
	m := NewManager(Config{})
	var expiring []brokerInfo
	for c := range scaleClusters {
		table := make(map[string]TopicConfig, scaleTopics)
		for t := range scaleTopics {
			name := fmt.Sprintf("ScaleTopicOfCluster%dXXXXXXXXXXX%d", c, t)
			table[name] = topicConfig(name, 8, 6)
		}
		for k := range scaleBrokers {
			i := c*scaleBrokers + k
			br := brokerInfo{cluster: fmt.Sprintf("ScaleCluster-%d", c), name: fmt.Sprintf("scale-c%d-broker-%d", c, k),
				addr: fmt.Sprintf("10.0.%d.%d:10911", i/256, i%256), conn: ConnID(i + 1), dv: DataVersion{Counter: 1}}
			at := testNow.Add(60 * time.Second)
			if i < scaleExpire {
				at = testNow
				expiring = append(expiring, br)
			}
			if _, _, err := m.RegisterBroker(requestWithTable(br, table, uint64(c+1)), at); err != nil {
				b.Fatal(err)
			}
		}
	}
	return m, expiring
}

// BenchmarkScale measures, at 100,000 topics on 1,000 brokers, the time
// the operations that remove many brokers hold the writer lock (each
// iteration removes the same 100 brokers and registers them again, not
// timed), the big lists read from a snapshot, and the cold registration of
// all 1,000 brokers.
func BenchmarkScale(b *testing.B) {
	m, expiring := scaleWorld(b)
	tables := map[string]map[string]TopicConfig{}
	reRegister := func(b *testing.B) {
		for _, br := range expiring {
			c := br.cluster
			table, ok := tables[c]
			if !ok {
				table = map[string]TopicConfig{}
				var idx int
				fmt.Sscanf(c, "ScaleCluster-%d", &idx)
				for t := range scaleTopics {
					name := fmt.Sprintf("ScaleTopicOfCluster%dXXXXXXXXXXX%d", idx, t)
					table[name] = topicConfig(name, 8, 6)
				}
				tables[c] = table
			}
			if _, _, err := m.RegisterBroker(requestWithTable(br, table, 1000), testNow); err != nil {
				b.Fatal(err)
			}
		}
	}
	scanAt := time.UnixMilli(testNow.Add(DefaultHeartbeatTimeout + time.Millisecond).UnixMilli())
	conns := make([]ConnID, len(expiring))
	reqs := make([]UnregisterRequest, len(expiring))
	for i, br := range expiring {
		conns[i], reqs[i] = br.conn, br.unregisterRequest()
	}
	// Each removal takes the same 100 brokers out; they are registered
	// again between iterations, untimed.
	removals := []struct {
		name   string
		remove func() int
	}{
		{"expire100of1000", func() int { return len(m.ScanExpired(scanAt)) }},
		{"connClose100of1000", func() int {
			n := 0
			for _, conn := range conns {
				n += len(m.ConnectionClosed(conn))
			}
			return n
		}},
		{"connsClosedBatch100of1000", func() int { return len(m.ConnectionsClosed(conns)) }},
		{"unregisterBatch100of1000", func() int { m.UnregisterBrokers(reqs); return scaleExpire }},
	}
	for _, removal := range removals {
		b.Run(removal.name, func(b *testing.B) {
			for b.Loop() {
				if n := removal.remove(); n != scaleExpire {
					b.Fatalf("removed %d", n)
				}
				b.StopTimer()
				reRegister(b)
				b.StartTimer()
			}
		})
	}
	runtime.GC() // the setup's garbage is not the lists' cost
	b.Run("allTopicList", func(b *testing.B) {
		for b.Loop() {
			if n := len(m.AllTopicList().TopicList); n != scaleClusters*scaleTopics {
				b.Fatalf("%d topics", n)
			}
		}
	})
	b.Run("topicsByCluster", func(b *testing.B) {
		for b.Loop() {
			if n := len(m.TopicsByCluster("ScaleCluster-50").TopicList); n != scaleTopics {
				b.Fatalf("%d topics", n)
			}
		}
	})
	b.Run("clusterInfo", func(b *testing.B) {
		for b.Loop() {
			if n := len(m.ClusterInfo().BrokerAddrTable); n != scaleClusters*scaleBrokers {
				b.Fatalf("%d brokers", n)
			}
		}
	})
	// The cold registration of the whole layout into an empty Manager, one
	// broker after the other: what a restarted NameServer goes through.
	b.Run("coldRegistration1000", func(b *testing.B) {
		for b.Loop() {
			fresh, _ := scaleWorld(b)
			if n := fresh.Counts().LiveBrokers; n != scaleClusters*scaleBrokers {
				b.Fatalf("%d live brokers", n)
			}
		}
	})
}
