package metrics

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func testSources() Sources {
	return Sources{
		Counts: func() route.Counts {
			return route.Counts{Topics: 7, QueueDatas: 9, BrokerGroups: 2, LiveBrokers: 3, Clusters: 1}
		},
		Pools: func() []remoting.PoolStat {
			return []remoting.PoolStat{{Name: "", Queued: 4, Capacity: 10}, {Name: "admin", Capacity: 5}}
		},
		RequestMemory:   func() (int64, int64) { return 100, 1000 },
		UnregisterQueue: func() (int, time.Time) { return 2, time.Now().Add(-3 * time.Second) },
		BrokerConns:     func() int { return 1 },
		LoopConns:       func() []int64 { return []int64{3, 2} },
		ExpiryExamined:  func() uint64 { return 5 },
		Conns: func() ConnCounts {
			return ConnCounts{Open: 2, Max: 100, Refused: 3, OutboundPauses: 4, OutboundClosed: 1}
		},
		ACL: func() ACLCounts {
			return ACLCounts{Denials: []ACLDenial{{"route_read", "not_signed", 0}, {"admin_write", "not_admin", 2}},
				Reloads: 3, ReloadFailures: 1}
		},
		Notify: func() NotifyCounts { return NotifyCounts{Sent: 5, Failed: 1, Dropped: 2, Skipped: 3} },
		Frames: func() FrameCounts { return FrameCounts{Arriving: 1, Closes: map[string]uint64{"stalled": 1}} },
		Peers: func() []PeerStatus {
			return []PeerStatus{{Addr: "10.0.0.2:9876", Up: true, KV: &peers.KVStatus{Agree: true}}, {Addr: "10.0.0.3:9876"}}
		},
	}
}

// TestMetricsCountWhatTheHooksSee: every hook moves its metric, with the
// labels resolved at New, and the gauges read their sources.
func TestMetricsCountWhatTheHooksSee(t *testing.T) {
	m := New(testSources(), []string{"admin"}, time.Unix(1000, 0))
	m.ConnOpened(nil)
	m.ConnOpened(nil)
	m.Answered(remoting.GET_ROUTEINFO_BY_TOPIC, remoting.SUCCESS, time.Millisecond, 200)
	m.Answered(remoting.GET_ROUTEINFO_BY_TOPIC, remoting.TOPIC_NOT_EXIST, time.Millisecond, 50)
	m.Answered(remoting.PUT_KV_CONFIG, remoting.NO_PERMISSION, time.Millisecond, 10)
	m.Answered(31337, remoting.REQUEST_CODE_NOT_SUPPORTED, 0, 10)
	m.Busy("")
	m.Busy("admin")
	m.Busy("nope")
	m.Registration(RegistrationFullTable, ResultSuccess, 4096, 2*time.Millisecond)
	m.Registration(RegistrationUnchanged, ResultSuccess, 4096, time.Microsecond)
	m.RegistrationOnLoop()
	m.Heartbeat()
	m.Unregistered(CauseConnClose, 2)
	m.EvictionScan(time.Millisecond, 1)
	m.KVWrite("put", nil)
	m.KVWrite("put", errors.New("disk full"))
	m.ConfigUpdate(ResultRefused)

	want := `
# HELP rocketmq_namesrv_requests_total Requests answered, by request code name and result (success, topic_not_exist, system_busy, denied, go_away, error).
# TYPE rocketmq_namesrv_requests_total counter
rocketmq_namesrv_requests_total{code="GET_ROUTEINFO_BY_TOPIC",result="success"} 1
rocketmq_namesrv_requests_total{code="GET_ROUTEINFO_BY_TOPIC",result="topic_not_exist"} 1
rocketmq_namesrv_requests_total{code="PUT_KV_CONFIG",result="denied"} 1
rocketmq_namesrv_requests_total{code="unknown",result="error"} 1
# HELP rocketmq_namesrv_response_bytes_total Bytes of answer frames written.
# TYPE rocketmq_namesrv_response_bytes_total counter
rocketmq_namesrv_response_bytes_total 270
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "rocketmq_namesrv_requests_total", "rocketmq_namesrv_response_bytes_total"); err != nil {
		t.Error(err)
	}
	checks := map[string]float64{
		"rocketmq_namesrv_connections_opened_total":          2,
		"rocketmq_namesrv_system_busy_total":                 3,
		"rocketmq_namesrv_registrations_total":               2,
		"rocketmq_namesrv_heartbeats_total":                  1,
		"rocketmq_namesrv_registrations_on_event_loop_total": 1,
		"rocketmq_namesrv_unregistrations_total":             3,
		"rocketmq_namesrv_eviction_scans_total":              1,
		"rocketmq_namesrv_evicted_brokers_total":             1,
		"rocketmq_namesrv_eviction_examined_total":           5,
		"rocketmq_namesrv_kv_writes_total":                   1,
		"rocketmq_namesrv_kv_persist_failures_total":         1,
		"rocketmq_namesrv_config_updates_total":              1,
		"rocketmq_namesrv_live_brokers":                      3,
		"rocketmq_namesrv_queue_datas":                       9,
		"rocketmq_namesrv_pool_queue_depth":                  4,
		"rocketmq_namesrv_request_memory_limit_bytes":        1000,
		"rocketmq_namesrv_unregister_queue_depth":            2,
		"rocketmq_namesrv_start_time_seconds":                1000,
		"rocketmq_namesrv_build_info":                        1,
		"rocketmq_namesrv_connections_open":                  2, // 1 broker + 1 client
		"rocketmq_namesrv_request_duration_seconds":          -1,
		"rocketmq_namesrv_registration_body_bytes":           -1,
	}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]float64{}
	for _, fam := range families {
		for _, metric := range fam.Metric {
			switch {
			case metric.Counter != nil:
				seen[fam.GetName()] += metric.Counter.GetValue()
			case metric.Gauge != nil:
				seen[fam.GetName()] += metric.Gauge.GetValue()
			default:
				seen[fam.GetName()] = -1
			}
		}
	}
	for name, want := range checks {
		got, ok := seen[name]
		if !ok || (want >= 0 && got != want) {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	if age := seen["rocketmq_namesrv_unregister_queue_oldest_age_seconds"]; age < 3 {
		t.Errorf("oldest unregistration age %v s, want at least 3", age)
	}
	if m.RequestsOf(remoting.GET_ROUTEINFO_BY_TOPIC) != 2 {
		t.Errorf("route queries %d, want 2", m.RequestsOf(remoting.GET_ROUTEINFO_BY_TOPIC))
	}
}

// TestStatsRingKeepsTheLastSamples: the ring holds at most StatsSamples and
// ends with a sample of now.
func TestStatsRingKeepsTheLastSamples(t *testing.T) {
	m := New(testSources(), nil, time.Now())
	s := m.StartStats(testSources(), time.Hour)
	defer s.Stop()
	for i := range StatsSamples + 5 {
		m.Answered(remoting.REGISTER_BROKER, remoting.SUCCESS, time.Microsecond, 1)
		s.take(time.UnixMilli(int64(i)))
	}
	samples := s.Samples()
	if len(samples) != StatsSamples+1 {
		t.Fatalf("%d samples, want %d", len(samples), StatsSamples+1)
	}
	if first := samples[0]; first.UnixMillis != 5 || first.Registrations != 6 || first.LiveBrokers != 3 {
		t.Fatalf("oldest sample %+v", first)
	}
	if last := samples[len(samples)-1]; last.Registrations != StatsSamples+5 {
		t.Fatalf("newest sample %+v", last)
	}
}
