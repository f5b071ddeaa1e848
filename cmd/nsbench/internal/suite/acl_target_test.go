package suite

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

func aclPhase(mode string, round int, perSecond float64) report.Phase {
	return report.Phase{Scenario: scenario.ACLRoundScenario(mode, round), Target: report.TargetNamesrv, Op: "route",
		Conns: 64, InFlight: 8, PerSecond: perSecond}
}

// TestACLTargetsAreMediansOfRoundRatios: each round's rate is compared
// with ACL off in the same round, the target met on the median.
func TestACLTargetsAreMediansOfRoundRatios(t *testing.T) {
	r := &report.Report{Phases: []report.Phase{
		aclPhase(scenario.ACLOff, 1, 100), aclPhase(scenario.ACLAnonymous, 1, 96), aclPhase(scenario.ACLSigned, 1, 50),
		aclPhase(scenario.ACLOff, 2, 200), aclPhase(scenario.ACLAnonymous, 2, 150), aclPhase(scenario.ACLSigned, 2, 180),
		aclPhase(scenario.ACLOff, 3, 100), aclPhase(scenario.ACLAnonymous, 3, 99), aclPhase(scenario.ACLSigned, 3, 86),
	}}
	targets := evaluateACL(r)
	anonymous, signed := targets[0], targets[1]
	// anonymous: 0.96, 0.75, 0.99 -> 0.96; signed: 0.50, 0.90, 0.86 -> 0.86
	if !anonymous.Met || !strings.Contains(anonymous.Measured, "median 0.96x over 3 rounds") {
		t.Errorf("anonymous: met %v, %s", anonymous.Met, anonymous.Measured)
	}
	if !signed.Met || !strings.Contains(signed.Measured, "median 0.86x over 3 rounds") {
		t.Errorf("signed: met %v, %s", signed.Met, signed.Measured)
	}
	r.Phases[5].PerSecond = 100 // round 2 signed 0.50x: median 0.50
	r.Phases[5].Errors = map[string]uint64{"NO_PERMISSION": 1}
	if signed := evaluateACL(r)[1]; signed.Met {
		t.Errorf("signed at a median of 0.50x with an error: met, %s", signed.Measured)
	}
	if none := evaluateACL(&report.Report{})[0]; none.Met || none.Measured != "not measured in this run" {
		t.Errorf("no ACL phases: %+v", none)
	}
}
