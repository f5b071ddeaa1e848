package suite

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// TestStormRateTargetIsTheMedianOfRoundShares: each round's route rate
// during the storm against the baseline's of the same round.
func TestStormRateTargetIsTheMedianOfRoundShares(t *testing.T) {
	l := scenario.Load{Conns: 4, InFlight: 1}
	ns, base := report.TargetNamesrv, report.TargetBaseline
	r := &report.Report{Phases: []report.Phase{
		phase(scenario.StormRoundScenario(1), ns, "route", l, 70, 100, 0), phase(scenario.StormRoundScenario(1), base, "route", l, 100, 100, 0),
		phase(scenario.StormRoundScenario(2), ns, "route", l, 170, 100, 0), phase(scenario.StormRoundScenario(2), base, "route", l, 200, 100, 0),
		phase(scenario.StormRoundScenario(3), ns, "route", l, 90, 100, 0), phase(scenario.StormRoundScenario(3), base, "route", l, 100, 100, 0),
	}}
	// 0.70, 0.85, 0.90 -> 0.85
	if target := evaluateStormRateAgainstBaseline(r); !target.Met || !strings.Contains(target.Measured, "median 0.85x over 3 rounds") {
		t.Errorf("met %v, %s", target.Met, target.Measured)
	}
	r.Phases[2].PerSecond = 100 // round 2 at 0.50x: median 0.70
	if target := evaluateStormRateAgainstBaseline(r); target.Met {
		t.Errorf("median 0.70x: met, %s", target.Measured)
	}
}
