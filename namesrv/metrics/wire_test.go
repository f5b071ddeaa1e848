package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestWiredCountersReadTheirSources: the counters other packages keep are
// exported as they read at scrape time (the connections of each event loop
// among them), every label pair of the ACL
// denials (zeros too) and every notification result; the registration
// refusals are resolved at New, so an unknown reason is not a new series.
func TestWiredCountersReadTheirSources(t *testing.T) {
	m := New(testSources(), nil, time.Now())
	m.RegistrationRefused(RefusedLimit)
	m.RegistrationRefused(RefusedLimit)
	m.RegistrationRefused(RefusedIgnored)
	m.RegistrationRefused("made_up")
	m.BrokerConnOpened()

	want := `
# HELP rocketmq_namesrv_acl_denials_total Requests refused NO_PERMISSION by the access checks, by request class and reason.
# TYPE rocketmq_namesrv_acl_denials_total counter
rocketmq_namesrv_acl_denials_total{class="admin_write",reason="not_admin"} 2
rocketmq_namesrv_acl_denials_total{class="route_read",reason="not_signed"} 0
# HELP rocketmq_namesrv_acl_reload_failures_total Changed accounts files that did not parse or check: the accounts in force stayed.
# TYPE rocketmq_namesrv_acl_reload_failures_total counter
rocketmq_namesrv_acl_reload_failures_total 1
# HELP rocketmq_namesrv_acl_reloads_total Accounts files (aclFile) loaded, the first one included.
# TYPE rocketmq_namesrv_acl_reloads_total counter
rocketmq_namesrv_acl_reloads_total 3
# HELP rocketmq_namesrv_broker_connections_opened_total Connections over which a broker registered for the first time (connections_opened_total minus this: client connections).
# TYPE rocketmq_namesrv_broker_connections_opened_total counter
rocketmq_namesrv_broker_connections_opened_total 1
# HELP rocketmq_namesrv_connections_max The connection cap in effect (maxConnections, or less when the open file limit leaves less room).
# TYPE rocketmq_namesrv_connections_max gauge
rocketmq_namesrv_connections_max 100
# HELP rocketmq_namesrv_connections_refused_total Connections closed at once for being past maxConnections.
# TYPE rocketmq_namesrv_connections_refused_total counter
rocketmq_namesrv_connections_refused_total 3
# HELP rocketmq_namesrv_event_loop_connections Open connections on each event loop (by index, in the order the loops took their first connection).
# TYPE rocketmq_namesrv_event_loop_connections gauge
rocketmq_namesrv_event_loop_connections{loop="0"} 3
rocketmq_namesrv_event_loop_connections{loop="1"} 2
# HELP rocketmq_namesrv_notifications_total NOTIFY_MIN_BROKER_ID_CHANGE recipients by result: sent, failed, dropped (queue full or budget passed), skipped (failed just before).
# TYPE rocketmq_namesrv_notifications_total counter
rocketmq_namesrv_notifications_total{result="dropped"} 2
rocketmq_namesrv_notifications_total{result="failed"} 1
rocketmq_namesrv_notifications_total{result="sent"} 5
rocketmq_namesrv_notifications_total{result="skipped"} 3
# HELP rocketmq_namesrv_outbound_closed_connections_total Connections closed for holding more than connectionOutboundHardLimit of unread answers.
# TYPE rocketmq_namesrv_outbound_closed_connections_total counter
rocketmq_namesrv_outbound_closed_connections_total 1
# HELP rocketmq_namesrv_outbound_pauses_total Times a connection's requests and socket were left unread until its answers were written: past connectionOutboundSoftLimit, while a large answer was handed out, or after a full pool's refusal.
# TYPE rocketmq_namesrv_outbound_pauses_total counter
rocketmq_namesrv_outbound_pauses_total 4
`
	names := []string{"rocketmq_namesrv_acl_denials_total", "rocketmq_namesrv_acl_reload_failures_total",
		"rocketmq_namesrv_acl_reloads_total", "rocketmq_namesrv_broker_connections_opened_total",
		"rocketmq_namesrv_connections_max", "rocketmq_namesrv_connections_refused_total", "rocketmq_namesrv_event_loop_connections",
		"rocketmq_namesrv_notifications_total", "rocketmq_namesrv_outbound_closed_connections_total",
		"rocketmq_namesrv_outbound_pauses_total"}
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	refused := map[string]float64{}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() != "rocketmq_namesrv_registrations_refused_total" {
			continue
		}
		for _, metric := range fam.Metric {
			refused[metric.Label[0].GetValue()] = metric.Counter.GetValue()
		}
	}
	if len(refused) != len(refusalReasons) || refused[RefusedLimit] != 2 || refused[RefusedIgnored] != 1 || refused[RefusedCRC] != 0 {
		t.Errorf("registrations_refused_total %v, want every reason listed, limit_exceeded 2, ignored_stale_version 1", refused)
	}
}

// TestEvictionPausesHook: the pause counter is exported only once the
// eviction job gives its reader, and then reads it.
func TestEvictionPausesHook(t *testing.T) {
	has := func(m *Metrics) (float64, bool) {
		families, err := m.Registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, fam := range families {
			if fam.GetName() == "rocketmq_namesrv_eviction_pauses_total" {
				return fam.Metric[0].Counter.GetValue(), true
			}
		}
		return 0, false
	}
	if _, ok := has(New(testSources(), nil, time.Now())); ok {
		t.Error("eviction_pauses_total exported without a source")
	}
	src := testSources()
	src.EvictionPauses = func() uint64 { return 2 }
	if got, ok := has(New(src, nil, time.Now())); !ok || got != 2 {
		t.Errorf("eviction_pauses_total %v (present %v), want 2", got, ok)
	}
}

// TestRegistrationRefusedAllocatesNothing: the hook resolves its counter
// from a map made at New.
func TestRegistrationRefusedAllocatesNothing(t *testing.T) {
	m := New(testSources(), nil, time.Now())
	if n := testing.AllocsPerRun(100, func() { m.RegistrationRefused(RefusedLimit) }); n != 0 {
		t.Errorf("%v allocations per refusal, want 0", n)
	}
}
