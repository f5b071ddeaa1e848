package suite

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
)

// floodRow is a row of the fault report as test/faults writes it.
const floodRow = "| registration flood: 2 MB bodies | 64 connections | route queries on their own connection answered 2709 times | " +
	"route p99 quiet / during the flood: 470µs / 22.94ms (2709 queries, 0 unanswered); server RSS before / peak: 14 MiB / 946 MiB (bound 1536 MiB); " +
	"registrations answered 0 / SYSTEM_BUSY / other or error: 809 / 105 / 0 | pass | `TestFloodLargeRegistrations` |\n"

func TestFloodFactsReadTheFaultReportRow(t *testing.T) {
	page := "# Reliability\n\n| fault | injected | observed | figures | result | test |\n| --- |\n" + floodRow
	facts, err := FloodFacts(page)
	if err != nil {
		t.Fatal(err)
	}
	r := &report.Report{Facts: facts}
	want := map[string]float64{FactFloodRouteQuietP99: 0.47, FactFloodRouteP99: 22.94, FactFloodRouteAnswered: 2709,
		FactFloodRouteUnanswered: 0, FactFloodRegisteredOK: 809, FactFloodRegisteredBusy: 105, FactFloodRegisteredOther: 0}
	for name, v := range want {
		if got, ok := r.Fact(name); !ok || got < v-1e-9 || got > v+1e-9 {
			t.Errorf("%s = %v (%v), want %v", name, got, ok, v)
		}
	}
	target := evaluateFlood(r)
	if target.Met || !strings.Contains(target.Measured, "route p99 22.94 ms during the flood") {
		t.Errorf("22.94 ms against a 20 ms limit: %+v", target)
	}
	if _, err := FloodFacts("| other row | `TestFloodSlowloris` |\n"); err == nil {
		t.Error("a page without the flood's row read without an error")
	}
	if _, err := FloodFacts(strings.Replace(floodRow, "22.94ms", "fast", 1)); err == nil {
		t.Error("a p99 that is not a duration read without an error")
	}
}

func TestFloodTargetCountsUnansweredRegistrations(t *testing.T) {
	facts, err := FloodFacts(strings.NewReplacer("22.94ms", "9.5ms", "809 / 105 / 0", "809 / 105 / 3").Replace(floodRow))
	if err != nil {
		t.Fatal(err)
	}
	r := &report.Report{Facts: facts}
	if target := evaluateFlood(r); target.Met {
		t.Errorf("3 registrations unanswered: met, %s", target.Measured)
	}
	r.Facts[len(r.Facts)-1].Value = 0
	if target := evaluateFlood(r); !target.Met {
		t.Errorf("9.5 ms, everything answered: not met, %s", target.Measured)
	}
}
