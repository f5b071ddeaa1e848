package suite

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// Scenario names and loads the targets read; the suite runs them.
const (
	ScenarioRoute     = "route"
	ScenarioHeartbeat = "heartbeat"
	ScenarioRegister  = "register"
)

// RouteClients are the header layouts the suite's route queries are
// measured and judged in: the Java client's (the issue's), the Go
// client's and the binary one.
var RouteClients = []load.Client{load.JavaClient, load.GoClient, load.BinaryClient}

// routeLayoutNames name each layout in the route targets' goals.
var routeLayoutNames = map[load.Client]string{
	load.JavaClient:   "",
	load.GoClient:     " in the Go client's header layout",
	load.BinaryClient: " in the binary (ROCKETMQ) header layout",
}

// jmhRegisterOp is the op of the JMH brokers' registrations: a new data
// version of the same table each time, as Java's JMH sent.
var jmhRegisterOp = load.RegisterNewVersion.Op()

// Loads of the route targets.
var (
	Load64x1 = scenario.Load{Conns: 64, InFlight: 1}
	Load64x8 = scenario.Load{Conns: 64, InFlight: 8}
)

// Limits of the targets.
const (
	routeRate64x1       = 0.90
	routeRate64x8       = 0.75
	generatorRate64x8   = 500000
	routeP99Factor      = 1.5
	stormP99Factor      = 2.0
	stormRegisterRate   = 0.30
	unchangedCPUShare   = 0.10
	decodeSpeedup       = 3.0
	heartbeatRate       = 0.85
	jmhMemoryLimitMiB   = 256
	idleConnsLimitMiB   = 100
	FactJMHResident     = report.TargetNamesrv + " resident memory, jmh data loaded"
	FactQueueEntryBytes = report.TargetNamesrv + " bytes per queue entry"
)

// IdleConnsFact names the memory growth fact of n idle connections.
func IdleConnsFact(n int) string {
	return fmt.Sprintf("%s memory growth for %d idle connections", report.TargetNamesrv, n)
}

// findLoad returns the phase of a scenario, target and op at a load.
func findLoad(r *report.Report, scenarioName, targetKind, op string, l scenario.Load) (report.Phase, bool) {
	for _, p := range r.Phases {
		if p.Scenario == scenarioName && p.Target == targetKind && p.Op == op && p.Conns == l.Conns && p.InFlight == l.InFlight {
			return p, true
		}
	}
	return report.Phase{}, false
}

// Evaluate checks every target of the issue against the run's figures. A
// target whose figures are missing is reported as not met, saying so.
func Evaluate(r *report.Report, bench []GoBench, idleConns int) []report.Target {
	var targets []report.Target
	add := func(goal string, met bool, format string, args ...any) {
		targets = append(targets, report.Target{Goal: goal, Met: met, Measured: fmt.Sprintf(format, args...)})
	}
	missing := func(goal string) { add(goal, false, "not measured in this run") }

	// the route targets in the Java client's header layout (the issue's),
	// then in the others, which a server's header scan reads otherwise
	for _, client := range RouteClients {
		for _, c := range []struct {
			load     scenario.Load
			minShare float64
		}{{Load64x1, routeRate64x1}, {Load64x8, routeRate64x8}} {
			evaluateRoute(r, client, c.load, c.minShare, add, missing)
		}
	}
	genGoal := fmt.Sprintf("the load generator reaches >= %d route queries/s against the zero-work baseline at %s", generatorRate64x8, Load64x8)
	if base, ok := findLoad(r, ScenarioRoute, report.TargetBaseline, "route", Load64x8); ok {
		add(genGoal, base.PerSecond >= generatorRate64x8 && base.ErrorCount() == 0,
			"%.0f/s, %s us of generator CPU and %s us of baseline CPU per query; %d errors",
			base.PerSecond, report.FormatOptionalMicros(base.GeneratorCPUMicrosPerOp), report.FormatOptionalMicros(base.ServerCPUMicrosPerOp), base.ErrorCount())
	} else {
		missing(genGoal)
	}

	stormGoal := fmt.Sprintf("jmh-route: route p99 during the registration storm <= %.0fx the quiet p99 (median of the rounds; for a load generator on other cores or another host: see docs/performance.md, Method)", stormP99Factor)
	quiet, ok1 := r.Find(scenario.ScenarioJMHQuiet, report.TargetNamesrv, "route")
	rounds := stormRounds(r)
	if ok1 && quiet.Latency.P99 > 0 && len(rounds) > 0 {
		p99s := make([]float64, len(rounds))
		var errs uint64
		for i, round := range rounds {
			p99s[i] = round.namesrv.Latency.P99
			errs += round.namesrv.ErrorCount()
		}
		storm := median(p99s)
		ratio := storm / quiet.Latency.P99
		add(stormGoal, ratio <= stormP99Factor && errs == 0, "median p99 %s us during the storm, %s us quiet: %.2fx; %d errors%s",
			report.FormatMicros(storm), report.FormatMicros(quiet.Latency.P99), ratio, errs, stormContext(r, quiet))
	} else {
		missing(stormGoal)
	}
	targets = append(targets, evaluateStormAgainstBaseline(r), evaluateStormRateAgainstBaseline(r), evaluateFlood(r))
	targets = append(targets, evaluateACL(r)...)
	targets = append(targets, EvaluateTLS(r))
	regGoal := fmt.Sprintf("jmh-route: registrations flow at >= %.0f%% of the rate at which the baseline merely reads the same frames (jmh-register, flat out)", stormRegisterRate*100)
	stormRegs, ok1 := r.Find(scenario.ScenarioJMHStorm, report.TargetNamesrv, jmhRegisterOp)
	baseRegs, ok2 := r.Find(scenario.ScenarioJMHRegister, report.TargetBaseline, jmhRegisterOp)
	if ok1 && ok2 {
		share := stormRegs.PerSecond / baseRegs.PerSecond
		add(regGoal, share >= stormRegisterRate && stormRegs.ErrorCount() == 0, "%.0f registrations/s = %.0f%% of %.0f/s; %d errors",
			stormRegs.PerSecond, share*100, baseRegs.PerSecond, stormRegs.ErrorCount())
	} else {
		missing(regGoal)
	}

	cpuGoal := fmt.Sprintf("unchanged 10,000-topic re-registration: server CPU <= %.0f%% of a changed one", unchangedCPUShare*100)
	changed, ok1 := r.Find(ScenarioRegister, report.TargetNamesrv, "register-changed")
	unchanged, ok2 := r.Find(ScenarioRegister, report.TargetNamesrv, "register-unchanged")
	if ok1 && ok2 && changed.ServerCPUMicrosPerOp > 0 && unchanged.ServerCPUMicrosPerOp > 0 {
		share := unchanged.ServerCPUMicrosPerOp / changed.ServerCPUMicrosPerOp
		add(cpuGoal, share <= unchangedCPUShare, "%s us against %s us of server CPU per registration: %.1f%%",
			report.FormatMicros(unchanged.ServerCPUMicrosPerOp), report.FormatMicros(changed.ServerCPUMicrosPerOp), share*100)
	} else {
		missing(cpuGoal)
	}

	decodeGoal := fmt.Sprintf("decoding and applying a 10,000-topic body >= %.0fx faster than decoding it with encoding/json", decodeSpeedup)
	ours, ok1 := findGoBench(bench, "DecodeRegisterBody10k/ours")
	std, ok2 := findGoBench(bench, "DecodeRegisterBody10k/encoding-json")
	apply, ok3 := findGoBench(bench, "Register10kTopics/changed")
	if ok1 && ok2 && ok3 {
		speedup := std.NsPerOp / (ours.NsPerOp + apply.NsPerOp)
		add(decodeGoal, speedup >= decodeSpeedup, "decode %.2f ms + apply %.2f ms against encoding/json %.2f ms: %.1fx",
			ours.NsPerOp/1e6, apply.NsPerOp/1e6, std.NsPerOp/1e6, speedup)
	} else {
		missing(decodeGoal)
	}

	for _, op := range []string{"heartbeat", "query-data-version"} {
		goal := fmt.Sprintf("%s: >= %.0f%% of the baseline's rate", op, heartbeatRate*100)
		ours, ok1 := r.Find(ScenarioHeartbeat, report.TargetNamesrv, op)
		base, ok2 := r.Find(ScenarioHeartbeat, report.TargetBaseline, op)
		if !ok1 || !ok2 {
			missing(goal)
			continue
		}
		share := ours.PerSecond / base.PerSecond
		add(goal, share >= heartbeatRate && ours.ErrorCount() == 0, "%.0f/s = %.0f%% of %.0f/s; %d errors", ours.PerSecond, share*100, base.PerSecond, ours.ErrorCount())
	}

	memGoal := fmt.Sprintf("resident memory with the jmh-route data loaded <= %d MiB", jmhMemoryLimitMiB)
	if rss, ok := r.Fact(FactJMHResident); ok && rss > 0 {
		perEntry, _ := r.Fact(FactQueueEntryBytes)
		add(memGoal, rss <= jmhMemoryLimitMiB, "%.0f MiB (%.0f bytes per queue entry over the empty server)", rss, perEntry)
	} else {
		missing(memGoal)
	}
	connGoal := fmt.Sprintf("%d idle connections add <= %d MiB", idleConns, idleConnsLimitMiB*idleConns/10000)
	if growth, ok := r.Fact(IdleConnsFact(idleConns)); ok {
		add(connGoal, growth <= float64(idleConnsLimitMiB*idleConns/10000), "%.1f MiB (%.0f bytes per connection)", growth, growth*(1<<20)/float64(idleConns))
	} else {
		missing(connGoal)
	}
	return targets
}

// stormContext says what the jmh-route storm does to route p99 when the
// NameServer does none of the registration work (the same storm sent to a
// twin NameServer) and what it does to the zero-work baseline: on a machine
// whose cores the load generator shares, what part of the storm's effect is
// the machine's rather than the server's. Empty when the run has neither.
func stormContext(r *report.Report, quiet report.Phase) string {
	var b strings.Builder
	if twin, ok := r.Find(scenario.ScenarioJMHTwin, report.TargetNamesrv, "route"); ok && twin.Latency.P99 > 0 {
		fmt.Fprintf(&b, "; the same storm sent to a twin NameServer: p99 %s us (%.2fx quiet)",
			report.FormatMicros(twin.Latency.P99), twin.Latency.P99/quiet.Latency.P99)
	}
	baseQuiet, ok1 := r.Find(scenario.ScenarioJMHQuiet, report.TargetBaseline, "route")
	baseStorm, ok2 := r.Find(scenario.ScenarioJMHStorm, report.TargetBaseline, "route")
	if ok1 && ok2 && baseQuiet.Latency.P99 > 0 {
		fmt.Fprintf(&b, "; the zero-work baseline in its storm: p99 %s us against %s us quiet (%.2fx)",
			report.FormatMicros(baseStorm.Latency.P99), report.FormatMicros(baseQuiet.Latency.P99), baseStorm.Latency.P99/baseQuiet.Latency.P99)
	}
	return b.String()
}

// evaluateRoute adds the route target of client's header layout at l.
func evaluateRoute(r *report.Report, client load.Client, l scenario.Load, minShare float64,
	add func(goal string, met bool, format string, args ...any), missing func(goal string)) {
	op := load.RouteOp(client)
	goal := fmt.Sprintf("route queries%s at %s: >= %.0f%% of the baseline's requests/s, p99 <= %.1fx the baseline's",
		routeLayoutNames[client], l, minShare*100, routeP99Factor)
	ours, ok1 := findLoad(r, ScenarioRoute, report.TargetNamesrv, op, l)
	base, ok2 := findLoad(r, ScenarioRoute, report.TargetBaseline, op, l)
	if !ok1 || !ok2 {
		missing(goal)
		return
	}
	share, p99 := ours.PerSecond/base.PerSecond, ours.Latency.P99/base.Latency.P99
	add(goal, share >= minShare && p99 <= routeP99Factor && ours.ErrorCount() == 0,
		"%.0f/s = %.0f%% of %.0f/s; p99 %s us = %.2fx %s us; %d errors; generator headroom %s (%s us of generator CPU per query against the baseline)",
		ours.PerSecond, share*100, base.PerSecond, report.FormatMicros(ours.Latency.P99), p99, report.FormatMicros(base.Latency.P99), ours.ErrorCount(),
		report.FormatHeadroom(base.PerSecond/ours.PerSecond), report.FormatOptionalMicros(base.GeneratorCPUMicrosPerOp))
}
