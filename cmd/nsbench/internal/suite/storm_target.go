package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// stormBaselineFactor is the limit of the storm target this machine can
// judge: route p99 during the storm against the zero-work baseline's p99
// during the same storm in the same run (the machine's share cancels out).
const stormBaselineFactor = 1.25

// stormBaselineRate is the other half of that target (issue 22 item 2):
// the route rate during the storm at least this share of the baseline's in
// the same round. The route clients of jmh-route keep one query in flight
// each (4x1), so the rate is latency-bound, not generator-bound; the
// generator's CPU per query is shown beside it.
const stormBaselineRate = 0.80

// maxStormRounds bounds the rounds a report is searched for.
const maxStormRounds = 10

// stormRound is one round's route p99 during the storm for both servers.
type stormRound struct {
	round             int
	namesrv, baseline report.Phase
}

// stormRounds returns every round of the jmh-route storm that has both a
// NameServer and a baseline route phase.
func stormRounds(r *report.Report) []stormRound {
	var rounds []stormRound
	for i := 1; i <= maxStormRounds; i++ {
		name := scenario.StormRoundScenario(i)
		ns, ok1 := r.Find(name, report.TargetNamesrv, "route")
		base, ok2 := r.Find(name, report.TargetBaseline, "route")
		if ok1 && ok2 && base.Latency.P99 > 0 {
			rounds = append(rounds, stormRound{round: i, namesrv: ns, baseline: base})
		}
	}
	return rounds
}

// median of values (the mean of the two middle ones for an even count).
func median(values []float64) float64 {
	sorted := slices.Sorted(slices.Values(values))
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// evaluateStormAgainstBaseline is the storm target of a shared machine:
// the median over the rounds of the NameServer's storm p99 over the
// baseline's storm p99 of the same round.
func evaluateStormAgainstBaseline(r *report.Report) report.Target {
	goal := fmt.Sprintf("jmh-route: route p99 during the registration storm <= %.2fx the zero-work baseline's p99 during the same storm in the same run (median of %d rounds)",
		stormBaselineFactor, scenario.StormRounds)
	return evaluateStormRounds(r, goal, func(round stormRound) (float64, string) {
		ratio := round.namesrv.Latency.P99 / round.baseline.Latency.P99
		return ratio, fmt.Sprintf("%s us against %s us (%.2fx)",
			report.FormatMicros(round.namesrv.Latency.P99), report.FormatMicros(round.baseline.Latency.P99), ratio)
	}, func(m float64) bool { return m <= stormBaselineFactor })
}

// evaluateStormRateAgainstBaseline is the rate half of the shared-machine
// storm target: the median over the rounds of the NameServer's route rate
// during the storm over the baseline's in the same round.
func evaluateStormRateAgainstBaseline(r *report.Report) report.Target {
	goal := fmt.Sprintf("jmh-route: route rate during the registration storm >= %.2fx the zero-work baseline's in the same storm in the same run (median of %d rounds)",
		stormBaselineRate, scenario.StormRounds)
	return evaluateStormRounds(r, goal, func(round stormRound) (float64, string) {
		share := round.namesrv.PerSecond / max(round.baseline.PerSecond, 1)
		return share, fmt.Sprintf("%.0f/s against %.0f/s (%.2fx; generator CPU %s us/query against %s)",
			round.namesrv.PerSecond, round.baseline.PerSecond, share,
			report.FormatOptionalMicros(round.namesrv.GeneratorCPUMicrosPerOp), report.FormatOptionalMicros(round.baseline.GeneratorCPUMicrosPerOp))
	}, func(m float64) bool { return m >= stormBaselineRate })
}

// evaluateStormRounds is a shared-machine storm target: ratio gives each
// round's figure and its words, the target is met when ok holds for their
// median, every round is there and the NameServer answered without errors.
func evaluateStormRounds(r *report.Report, goal string, ratio func(stormRound) (float64, string), ok func(float64) bool) report.Target {
	rounds := stormRounds(r)
	if len(rounds) == 0 {
		return report.Target{Goal: goal, Measured: "not measured in this run"}
	}
	ratios := make([]float64, len(rounds))
	parts := make([]string, len(rounds))
	var errs uint64
	for i, round := range rounds {
		var words string
		ratios[i], words = ratio(round)
		parts[i] = fmt.Sprintf("round %d: %s", round.round, words)
		errs += round.namesrv.ErrorCount()
	}
	m := median(ratios)
	return report.Target{Goal: goal, Met: ok(m) && errs == 0 && len(rounds) >= scenario.StormRounds,
		Measured: fmt.Sprintf("median %.2fx over %d rounds (%s); %d errors", m, len(rounds), strings.Join(parts, "; "), errs)}
}

// stormScenarios are the scenario names of every storm round, for the
// page's JMH table.
func stormScenarios() []string {
	names := make([]string, 0, maxStormRounds)
	for i := 1; i <= maxStormRounds; i++ {
		names = append(names, scenario.StormRoundScenario(i))
	}
	return names
}
