package metrics

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestFrameCountsExported: the arriving bytes and every close reason are
// metrics that read the source at scrape time.
func TestFrameCountsExported(t *testing.T) {
	src := testSources()
	src.Frames = func() FrameCounts {
		return FrameCounts{Arriving: 7, Closes: map[string]uint64{"stalled": 1, "slow": 2, "memory": 3}}
	}
	got := gathered(t, New(src, nil, time.Now()))
	want := map[string]float64{"request_memory_arriving_bytes": 7}
	for i, reason := range remoting.FrameCloseReasons {
		want["frame_closes_total/"+reason] = float64(i + 1)
	}
	for name, value := range want {
		if v, ok := got[Namespace+"_"+name]; !ok || v != value {
			t.Errorf("%s_%s = %v (%v), want %v", Namespace, name, v, ok, value)
		}
	}
}

// gathered is every counter and gauge m exports, by name, a labelled
// series under its name and its label values ("name/value").
func gathered(t *testing.T, m *Metrics) map[string]float64 {
	t.Helper()
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			name := f.GetName()
			for _, label := range metric.GetLabel() {
				name += "/" + label.GetValue()
			}
			if c := metric.GetCounter(); c != nil {
				got[name] = c.GetValue()
			} else if g := metric.GetGauge(); g != nil {
				got[name] = g.GetValue()
			}
		}
	}
	return got
}
