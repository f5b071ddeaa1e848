package suite

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// The TLS target (issue 22 item 4): route reads over TLS against the rate
// of plain reads at 64x8 in the same round, median over the rounds.
const (
	tlsShare     = 0.80
	maxTLSRounds = 10
)

// tlsScenarios are the phase names of every TLS round, for the page.
func tlsScenarios() []string {
	var names []string
	for round := 1; round <= maxTLSRounds; round++ {
		for _, mode := range scenario.TLSModes {
			names = append(names, scenario.TLSRoundScenario(mode, round))
		}
	}
	return names
}

// EvaluateTLS is the TLS target: the median over the rounds of the TLS
// rate over the plain rate of the same round, with both sides' server and
// generator CPU per query (where the difference goes).
func EvaluateTLS(r *report.Report) report.Target {
	goal := fmt.Sprintf("route reads over TLS (tls.server.mode=permissive) at %s: >= %.2fx the rate of plain reads with TLS off in the same round (median of the rounds)", Load64x8, tlsShare)
	var shares []float64
	var parts []string
	var errs uint64
	for round := 1; round <= maxTLSRounds; round++ {
		off, ok1 := r.Find(scenario.TLSRoundScenario(scenario.TLSOff, round), report.TargetNamesrv, "route")
		on, ok2 := r.Find(scenario.TLSRoundScenario(scenario.TLSOn, round), report.TargetNamesrv, "route")
		if !ok1 || !ok2 || off.PerSecond <= 0 {
			continue
		}
		share := on.PerSecond / off.PerSecond
		shares = append(shares, share)
		parts = append(parts, fmt.Sprintf("round %d: %.0f/s against %.0f/s (%.2fx; server %s against %s us/query, generator %s against %s)",
			round, on.PerSecond, off.PerSecond, share,
			report.FormatOptionalMicros(on.ServerCPUMicrosPerOp), report.FormatOptionalMicros(off.ServerCPUMicrosPerOp),
			report.FormatOptionalMicros(on.GeneratorCPUMicrosPerOp), report.FormatOptionalMicros(off.GeneratorCPUMicrosPerOp)))
		errs += on.ErrorCount() + off.ErrorCount()
	}
	if len(shares) == 0 {
		return report.Target{Goal: goal, Measured: "not measured in this run"}
	}
	m := median(shares)
	return report.Target{Goal: goal, Met: m >= tlsShare && errs == 0,
		Measured: fmt.Sprintf("median %.2fx over %d rounds (%s); %d errors", m, len(shares), strings.Join(parts, "; "), errs)}
}
