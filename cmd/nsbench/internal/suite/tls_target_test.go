package suite

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

func tlsPhase(mode string, round int, perSecond float64) report.Phase {
	return report.Phase{Scenario: scenario.TLSRoundScenario(mode, round), Target: report.TargetNamesrv, Op: "route",
		Conns: 64, InFlight: 8, PerSecond: perSecond}
}

// TestTLSTargetIsTheMedianOfRoundRatios: each round's TLS rate is compared
// with plain in the same round, the target met on the median, missed with
// an error or without phases.
func TestTLSTargetIsTheMedianOfRoundRatios(t *testing.T) {
	r := &report.Report{Phases: []report.Phase{
		tlsPhase(scenario.TLSOff, 1, 100), tlsPhase(scenario.TLSOn, 1, 60),
		tlsPhase(scenario.TLSOff, 2, 200), tlsPhase(scenario.TLSOn, 2, 170),
		tlsPhase(scenario.TLSOff, 3, 100), tlsPhase(scenario.TLSOn, 3, 82),
	}}
	// 0.60, 0.85, 0.82 -> 0.82
	if got := EvaluateTLS(r); !got.Met || !strings.Contains(got.Measured, "median 0.82x over 3 rounds") {
		t.Errorf("met %v, %s", got.Met, got.Measured)
	}
	r.Phases[5].PerSecond = 70 // round 3 at 0.70x: median 0.70
	if got := EvaluateTLS(r); got.Met || !strings.Contains(got.Measured, "median 0.70x") {
		t.Errorf("at a median of 0.70x: met %v, %s", got.Met, got.Measured)
	}
	r.Phases[5].PerSecond = 90
	r.Phases[3].Errors = map[string]uint64{"timeout": 1}
	if got := EvaluateTLS(r); got.Met {
		t.Errorf("with an error: met, %s", got.Measured)
	}
	if none := EvaluateTLS(&report.Report{}); none.Met || none.Measured != "not measured in this run" {
		t.Errorf("no TLS phases: %+v", none)
	}
}
