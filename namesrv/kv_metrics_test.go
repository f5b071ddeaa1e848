package namesrv

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// metricValue is the sum of a metric family's samples in s's registry; a
// family that is not there fails the test.
func metricValue(t *testing.T, s *testServer, name string) float64 {
	t.Helper()
	families, err := s.ns.obs.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	found := false
	for _, fam := range families {
		if fam.GetName() != name {
			continue
		}
		found = true
		for _, m := range fam.Metric {
			switch {
			case m.Counter != nil:
				sum += m.Counter.GetValue()
			case m.Gauge != nil:
				sum += m.Gauge.GetValue()
			}
		}
	}
	if !found {
		t.Fatalf("no metric %s", name)
	}
	return sum
}

// TestKVWritesRefusedAtALimitAreNotPersistFailures: a PUT past the value
// limit wrote nothing and nothing failed to be written; it counts as
// refused, and the persist-failure counter (which an alert watches) stays 0.
func TestKVWritesRefusedAtALimitAreNotPersistFailures(t *testing.T) {
	s := startServer(t, nil)
	put := func(value string) *remoting.Command {
		return remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": value}, nil)
	}
	nstest.MustCode(t, nstest.Invoke(t, s.client, put(strings.Repeat("v", 1<<20))), remoting.SYSTEM_ERROR)
	nstest.MustCode(t, nstest.Invoke(t, s.client, put("small")), remoting.SUCCESS)
	for name, want := range map[string]float64{
		"rocketmq_namesrv_kv_writes_refused_total":   1,
		"rocketmq_namesrv_kv_persist_failures_total": 0,
		"rocketmq_namesrv_kv_writes_total":           1,
		"rocketmq_namesrv_eviction_pauses_total":     0,
	} {
		if got := metricValue(t, s, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
}
