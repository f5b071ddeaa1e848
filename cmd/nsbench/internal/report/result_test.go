package report

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/latency"
)

func TestPercentilesOfReadsTheHistogramInMicros(t *testing.T) {
	var h latency.Histogram
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	p := PercentilesOf(&h)
	near := func(got, want float64) bool { return got >= want && got <= want*1.01 }
	if !near(p.P50, 500) || !near(p.P90, 900) || !near(p.P99, 990) || !near(p.P999, 999) || p.Max != 1000 {
		t.Fatalf("percentiles %+v", p)
	}
}

func TestFindAndFact(t *testing.T) {
	r := &Report{
		Phases: []Phase{
			{Scenario: "route", Target: TargetBaseline, Op: "route", PerSecond: 1},
			{Scenario: "route", Target: TargetNamesrv, Op: "route", PerSecond: 2, Errors: map[string]uint64{"timeout": 2, "code 17": 3}},
		},
		Facts: []Fact{{Name: "rss", Value: 42, Unit: "MiB"}},
	}
	p, ok := r.Find("route", TargetNamesrv, "route")
	if !ok || p.PerSecond != 2 || p.ErrorCount() != 5 {
		t.Fatalf("found %+v %v", p, ok)
	}
	if _, ok := r.Find("route", TargetNamesrv, "register"); ok {
		t.Fatal("found a phase that does not exist")
	}
	if v, ok := r.Fact("rss"); !ok || v != 42 {
		t.Fatalf("fact %v %v", v, ok)
	}
	if _, ok := r.Fact("nothing"); ok {
		t.Fatal("found a fact that does not exist")
	}
}
