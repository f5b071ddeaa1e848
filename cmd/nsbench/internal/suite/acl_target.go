package suite

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// The ACL targets (issue 22 item 3): route reads with ACL on against the
// rate with ACL off at 64x8 in the same round, median over the rounds.
const (
	aclAnonymousShare = 0.95
	aclSignedShare    = 0.85
	maxACLRounds      = 10
)

// aclScenarios are the phase names of every ACL round, for the page.
func aclScenarios() []string {
	var names []string
	for round := 1; round <= maxACLRounds; round++ {
		for _, mode := range scenario.ACLModes {
			names = append(names, scenario.ACLRoundScenario(mode, round))
		}
	}
	return names
}

// evaluateACL gives the anonymous and the signed target.
func evaluateACL(r *report.Report) []report.Target {
	return []report.Target{
		evaluateACLMode(r, scenario.ACLAnonymous, "aclEnable, unsigned (anonymous) route reads", aclAnonymousShare),
		evaluateACLMode(r, scenario.ACLSigned, "aclEnable, signed route reads", aclSignedShare),
	}
}

// evaluateACLMode is one mode's target: the median over the rounds of its
// rate over the ACL-off rate of the same round.
func evaluateACLMode(r *report.Report, mode, what string, minShare float64) report.Target {
	goal := fmt.Sprintf("%s at %s: >= %.2fx the rate with ACL off in the same round (median of the rounds)", what, Load64x8, minShare)
	return medianOfRounds(r, goal, minShare, maxACLRounds,
		func(round int) (string, string) {
			return scenario.ACLRoundScenario(scenario.ACLOff, round), scenario.ACLRoundScenario(mode, round)
		},
		func(round int, on, off report.Phase, share float64) string {
			return fmt.Sprintf("round %d: %.0f/s against %.0f/s (%.2fx)", round, on.PerSecond, off.PerSecond, share)
		})
}

// medianOfRounds is a target on the median over the rounds of one phase's
// rate (names' second) over another's of the same round (the first): met
// at minShare with no error; part says each round on the page.
func medianOfRounds(r *report.Report, goal string, minShare float64, maxRounds int, names func(round int) (base, measured string),
	part func(round int, on, off report.Phase, share float64) string) report.Target {
	var shares []float64
	var parts []string
	var errs uint64
	for round := 1; round <= maxRounds; round++ {
		baseName, measuredName := names(round)
		off, ok1 := r.Find(baseName, report.TargetNamesrv, "route")
		on, ok2 := r.Find(measuredName, report.TargetNamesrv, "route")
		if !ok1 || !ok2 || off.PerSecond <= 0 {
			continue
		}
		share := on.PerSecond / off.PerSecond
		shares = append(shares, share)
		parts = append(parts, part(round, on, off, share))
		errs += on.ErrorCount() + off.ErrorCount()
	}
	if len(shares) == 0 {
		return report.Target{Goal: goal, Measured: "not measured in this run"}
	}
	m := median(shares)
	return report.Target{Goal: goal, Met: m >= minShare && errs == 0,
		Measured: fmt.Sprintf("median %.2fx over %d rounds (%s); %d errors", m, len(shares), strings.Join(parts, "; "), errs)}
}
