package suite

import (
	"fmt"

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
	return medianOfRounds(r, goal, tlsShare, maxTLSRounds,
		func(round int) (string, string) {
			return scenario.TLSRoundScenario(scenario.TLSOff, round), scenario.TLSRoundScenario(scenario.TLSOn, round)
		},
		func(round int, on, off report.Phase, share float64) string {
			return fmt.Sprintf("round %d: %.0f/s against %.0f/s (%.2fx; server %s against %s us/query, generator %s against %s)",
				round, on.PerSecond, off.PerSecond, share,
				report.FormatOptionalMicros(on.ServerCPUMicrosPerOp), report.FormatOptionalMicros(off.ServerCPUMicrosPerOp),
				report.FormatOptionalMicros(on.GeneratorCPUMicrosPerOp), report.FormatOptionalMicros(off.GeneratorCPUMicrosPerOp))
		})
}
