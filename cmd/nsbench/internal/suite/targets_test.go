package suite

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

// The ops of route queries in the Go client's and the binary header layout.
var routeGoOp, routeBinaryOp = load.RouteOp(load.GoClient), load.RouteOp(load.BinaryClient)

func phase(scenarioName, target, op string, l scenario.Load, perSecond, p99, cpu float64) report.Phase {
	return report.Phase{Scenario: scenarioName, Target: target, Op: op, Conns: l.Conns, InFlight: l.InFlight,
		Requests: 100, PerSecond: perSecond, Latency: report.Percentiles{P99: p99}, ServerCPUMicrosPerOp: cpu}
}

// fullRun has every figure the targets read; scale multiplies the
// NameServer's rates, so scale 1 meets every rate target and 0.5 misses them.
func fullRun(scale float64) *report.Report {
	ns, base := report.TargetNamesrv, report.TargetBaseline
	return &report.Report{
		Phases: []report.Phase{
			phase(ScenarioRoute, ns, "route", Load64x1, 95*scale, 100, 10),
			phase(ScenarioRoute, base, "route", Load64x1, 100, 100, 8),
			phase(ScenarioRoute, ns, "route", Load64x8, 480000*scale*scale, 140, 10),
			phase(ScenarioRoute, base, "route", Load64x8, 600000*scale, 100, 8),
			phase(ScenarioRoute, ns, routeGoOp, Load64x1, 92*scale, 110, 10),
			phase(ScenarioRoute, base, routeGoOp, Load64x1, 100, 100, 8),
			phase(ScenarioRoute, ns, routeGoOp, Load64x8, 450000*scale*scale, 140, 10),
			phase(ScenarioRoute, base, routeGoOp, Load64x8, 590000*scale, 100, 8),
			phase(ScenarioRoute, ns, routeBinaryOp, Load64x1, 99*scale, 90, 10),
			phase(ScenarioRoute, base, routeBinaryOp, Load64x1, 100, 100, 8),
			phase(ScenarioRoute, ns, routeBinaryOp, Load64x8, 500000*scale*scale, 120, 10),
			phase(ScenarioRoute, base, routeBinaryOp, Load64x8, 610000*scale, 100, 8),
			phase(scenario.ScenarioJMHQuiet, ns, "route", scenario.Load{Conns: 4, InFlight: 1}, 1000, 100, 0),
			phase(scenario.ScenarioJMHStorm, ns, "route", scenario.Load{Conns: 4, InFlight: 1}, 900*scale, 190/scale, 0),
			phase(scenario.ScenarioJMHStorm, base, "route", scenario.Load{Conns: 4, InFlight: 1}, 900, 180, 0),
			phase(scenario.StormRoundScenario(2), ns, "route", scenario.Load{Conns: 4, InFlight: 1}, 800*scale, 190/scale, 0),
			phase(scenario.StormRoundScenario(2), base, "route", scenario.Load{Conns: 4, InFlight: 1}, 900, 170, 0),
			phase(scenario.StormRoundScenario(3), ns, "route", scenario.Load{Conns: 4, InFlight: 1}, 950*scale, 190/scale, 0),
			phase(scenario.StormRoundScenario(3), base, "route", scenario.Load{Conns: 4, InFlight: 1}, 900, 200, 0),
			phase(scenario.ScenarioJMHStorm, ns, "register-new-version", scenario.Load{Conns: 32, InFlight: 1}, 40*scale, 0, 0),
			phase(scenario.ScenarioJMHRegister, base, "register-new-version", scenario.Load{Conns: 32, InFlight: 1}, 100, 0, 0),
			phase(ScenarioRegister, ns, "register-changed", scenario.Load{Conns: 1, InFlight: 1}, 50, 0, 10000),
			phase(ScenarioRegister, ns, "register-unchanged", scenario.Load{Conns: 1, InFlight: 1}, 50, 0, 900/scale),
			phase(ScenarioHeartbeat, ns, "heartbeat", Load64x8, 90*scale, 0, 0),
			phase(ScenarioHeartbeat, base, "heartbeat", Load64x8, 100, 0, 0),
			phase(ScenarioHeartbeat, ns, "query-data-version", Load64x8, 95*scale, 0, 0),
			phase(ScenarioHeartbeat, base, "query-data-version", Load64x8, 100, 0, 0),
			phase(scenario.ACLRoundScenario(scenario.ACLOff, 1), ns, "route", Load64x8, 1000, 0, 0),
			phase(scenario.ACLRoundScenario(scenario.ACLAnonymous, 1), ns, "route", Load64x8, 980*scale, 0, 0),
			phase(scenario.ACLRoundScenario(scenario.ACLSigned, 1), ns, "route", Load64x8, 900*scale, 0, 0),
			phase(scenario.TLSRoundScenario(scenario.TLSOff, 1), ns, "route", Load64x8, 1000, 0, 0),
			phase(scenario.TLSRoundScenario(scenario.TLSOn, 1), ns, "route", Load64x8, 850*scale, 0, 0),
		},
		Facts: []report.Fact{
			{Name: FactJMHResident, Value: 200 / scale, Unit: "MiB"},
			{Name: FactFloodRouteP99, Value: 15 / scale, Unit: "ms"},
			{Name: FactFloodRouteQuietP99, Value: 0.5, Unit: "ms"},
			{Name: FactFloodRouteAnswered, Value: 2000 * scale},
			{Name: FactFloodRouteUnanswered, Value: 0},
			{Name: FactFloodRegisteredOK, Value: 800 * scale},
			{Name: FactFloodRegisteredBusy, Value: 100},
			{Name: FactFloodRegisteredOther, Value: 2 * (1 - scale)},
			{Name: FactQueueEntryBytes, Value: 60, Unit: "bytes"},
			{Name: IdleConnsFact(10000), Value: 80 / scale, Unit: "MiB"},
		},
	}
}

var goBenchFast = []GoBench{
	{Name: "DecodeRegisterBody10k/ours", NsPerOp: 3e6},
	{Name: "DecodeRegisterBody10k/encoding-json", NsPerOp: 20e6},
	{Name: "Register10kTopics/changed", NsPerOp: 1e6},
}

func TestEvaluateMeetsEveryTargetOfAGoodRun(t *testing.T) {
	targets := Evaluate(fullRun(1), goBenchFast, 10000)
	if len(targets) != 21 {
		t.Fatalf("%d targets, want 21", len(targets))
	}
	for _, target := range targets {
		if !target.Met {
			t.Errorf("not met: %s: %s", target.Goal, target.Measured)
		}
	}
}

func TestEvaluateMissesEveryTargetOfABadRun(t *testing.T) {
	slowDecode := []GoBench{goBenchFast[0], {Name: "DecodeRegisterBody10k/encoding-json", NsPerOp: 5e6}, goBenchFast[2]}
	for _, target := range Evaluate(fullRun(0.5), slowDecode, 10000) {
		if target.Met {
			t.Errorf("met with half the figures: %s: %s", target.Goal, target.Measured)
		}
	}
}

func TestEvaluateSaysWhatWasNotMeasured(t *testing.T) {
	targets := Evaluate(&report.Report{}, nil, 10000)
	for _, target := range targets {
		if target.Met || target.Measured != "not measured in this run" {
			t.Errorf("%s: %+v", target.Goal, target)
		}
	}
}

// The Go client's layout is judged on its own phases: a run whose Java
// route queries meet the targets and whose Go ones do not misses only the
// latter.
func TestTheGoClientsRouteTargetsReadTheirOwnPhases(t *testing.T) {
	run := fullRun(1)
	for i, p := range run.Phases {
		if p.Op == routeGoOp && p.Target == report.TargetNamesrv {
			run.Phases[i].PerSecond /= 2
		}
	}
	var javaMet, goMissed int
	for _, target := range Evaluate(run, goBenchFast, 10000) {
		switch {
		case strings.HasPrefix(target.Goal, "route queries in the Go client's header layout at "):
			if !target.Met {
				goMissed++
			}
		case strings.HasPrefix(target.Goal, "route queries at "):
			if target.Met {
				javaMet++
			}
		}
	}
	if javaMet != 2 || goMissed != 2 {
		t.Fatalf("Java layout targets met %d, want 2; Go layout targets missed %d, want 2", javaMet, goMissed)
	}
}

func TestEvaluateCountsErrorsAgainstATarget(t *testing.T) {
	run := fullRun(1)
	run.Phases[0].Errors = map[string]uint64{"wrong brokers": 1}
	target := Evaluate(run, goBenchFast, 10000)[0]
	if target.Met || !strings.Contains(target.Measured, "1 errors") {
		t.Fatalf("a route target with a wrong answer: %+v", target)
	}
}

func TestTheStormTargetSaysWhatTheTwinAndTheBaselineShowed(t *testing.T) {
	run := fullRun(1)
	l := scenario.Load{Conns: 4, InFlight: 1}
	for i, p := range run.Phases {
		if p.Scenario == scenario.ScenarioJMHStorm && p.Target == report.TargetBaseline {
			run.Phases[i].Latency.P99 = 400
		}
	}
	run.Phases = append(run.Phases,
		phase(scenario.ScenarioJMHTwin, report.TargetNamesrv, "route", l, 900, 180, 0),
		phase(scenario.ScenarioJMHQuiet, report.TargetBaseline, "route", l, 1000, 80, 0))
	for _, target := range Evaluate(run, goBenchFast, 10000) {
		if !strings.HasPrefix(target.Goal, "jmh-route: route p99") {
			continue
		}
		for _, want := range []string{"twin NameServer: p99 180 us (1.80x quiet)", "baseline in its storm: p99 400 us against 80.0 us quiet (5.00x)"} {
			if !strings.Contains(target.Measured, want) {
				t.Errorf("storm target %q lacks %q", target.Measured, want)
			}
		}
		return
	}
	t.Fatal("no storm target")
}

func TestTheStormAgainstTheBaselineIsTheMedianOfEveryRound(t *testing.T) {
	l := scenario.Load{Conns: 4, InFlight: 1}
	run := &report.Report{}
	for i, ratio := range []float64{1.1, 3.0, 1.2} {
		name := scenario.StormRoundScenario(i + 1)
		run.Phases = append(run.Phases, phase(name, report.TargetNamesrv, "route", l, 900, 1000*ratio, 0),
			phase(name, report.TargetBaseline, "route", l, 900, 1000, 0))
	}
	target := evaluateStormAgainstBaseline(run)
	if !target.Met || !strings.Contains(target.Measured, "median 1.20x over 3 rounds") || !strings.Contains(target.Measured, "round 2: 3000 us against 1000 us (3.00x)") {
		t.Fatalf("one bad round of three must not decide: %+v", target)
	}
	run.Phases[4].Latency.P99 = 1300 // round 3 now 1.30x: the median misses
	if target := evaluateStormAgainstBaseline(run); target.Met {
		t.Fatalf("median 1.30x met: %+v", target)
	}
	run.Phases = run.Phases[:4]
	if target := evaluateStormAgainstBaseline(run); target.Met || !strings.Contains(target.Measured, "over 2 rounds") {
		t.Fatalf("two rounds of three met: %+v", target)
	}
	if median([]float64{4, 1, 2, 3}) != 2.5 {
		t.Fatal("median of an even count")
	}
}
