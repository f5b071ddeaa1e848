package scenario

import (
	"fmt"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/sirupsen/logrus"
)

// JMHSpec is the data of the Java NameServer's JMH benchmarks
// (GetRouteInfoBenchmark, RegisterBrokerBenchmark): 4 clusters of 8
// brokers, 10,000 topics per cluster, 8 queues per topic.
var JMHSpec = load.LayoutSpec{Clusters: 4, BrokersPerCluster: 8, TopicsPerCluster: 10000, QueueNums: 8}

// jmhPause is the JMH brokers' random wait before each re-registration.
const jmhPause = 100 * time.Millisecond

// Scenario names of the JMH shapes, as the report prints them.
const (
	ScenarioJMHQuiet    = "jmh-route quiet"
	ScenarioJMHStorm    = "jmh-route storm"
	ScenarioJMHTwin     = "jmh-route storm at a twin"
	ScenarioJMHRegister = "jmh-register"
)

// StormRounds is how many times the jmh-route storm runs against each
// server, the servers taking turns: the storm target is the median of the
// rounds' ratios, since one storm's p99 on a shared machine is noisy.
const StormRounds = 3

// StormRoundScenario names round r (1-based) of the jmh-route storm; round
// 1 keeps the plain name.
func StormRoundScenario(r int) string {
	if r <= 1 {
		return ScenarioJMHStorm
	}
	return fmt.Sprintf("%s, round %d", ScenarioJMHStorm, r)
}

// JMHParts selects the phases of JMH.
type JMHParts struct {
	// Storm: route queries while every broker re-registers after a random
	// 0-100 ms (jmh-route), after the same queries with no registrations,
	// then the same storm sent to a twin server (ScenarioJMHTwin) while the
	// queries still go to the first.
	Storm bool
	// FlatOut: every broker re-registers back to back (jmh-register), with
	// the route queries still measured.
	FlatOut bool
	// Rounds is the number of storm rounds (StormRoundScenario), at least 1.
	Rounds int
}

// JMH loads JMHSpec into every target, reports its resident memory, then
// runs the selected phases. Route queries run at routeLoad (JMH used 4
// threads: 4x1); every registration carries a new data version, as the JMH
// brokers call nextVersion() each time, and comes from the storm senders
// (Env.StartSenders), so the registration storm does not compete with the
// route clients for this process's cores (see runWithStorm).
func JMH(e *Env, routeLoad Load, parts JMHParts) (Result, error) {
	servers, err := e.seedAll(JMHSpec, routeLoad.Conns)
	if err != nil {
		return Result{}, err
	}
	defer closeAll(servers)
	var result Result
	for _, s := range servers {
		loaded := s.server.ResidentBytes()
		result.fact(s.server.Kind+" resident memory, empty", mib(s.emptyRSS), "MiB")
		result.fact(s.server.Kind+" resident memory, jmh data loaded", mib(loaded), "MiB")
		if loaded > 0 {
			result.fact(s.server.Kind+" bytes per queue entry", float64(loaded-s.emptyRSS)/float64(JMHSpec.QueueEntries()), "bytes")
		}
	}
	routes := make([]load.Stream, len(servers))
	for i, s := range servers {
		routes[i] = load.RouteStream(s.layout, s.pipes[:routeLoad.Conns], routeLoad.InFlight)
	}
	// Each step runs against every server in turn before the next step, so
	// that a drift of the shared machine hits both alike and the storm
	// rounds of the two servers alternate.
	var steps []func(s *seeded, route load.Stream) ([]report.Phase, error)
	if parts.Storm {
		steps = append(steps, func(s *seeded, route load.Stream) ([]report.Phase, error) {
			return e.run(s, ScenarioJMHQuiet, route)
		})
		for r := 1; r <= max(1, parts.Rounds); r++ {
			steps = append(steps, func(s *seeded, route load.Stream) ([]report.Phase, error) {
				return e.runWithStorm(s, s, StormRoundScenario(r), jmhPause, route)
			})
		}
		steps = append(steps, e.runWithStormAtTwin)
	}
	if parts.FlatOut {
		steps = append(steps, func(s *seeded, route load.Stream) ([]report.Phase, error) {
			return e.runWithStorm(s, s, ScenarioJMHRegister, 0, route)
		})
	}
	for _, step := range steps {
		for i, s := range servers {
			phases, err := step(s, routes[i])
			if err != nil {
				return result, err
			}
			result.Phases = append(result.Phases, phases...)
		}
	}
	return result, nil
}

// runWithStormAtTwin starts and seeds a twin of s (same kind, same data)
// and sends it the jmh-route storm while route measures s: the route
// queries then share the machine with the storm, but not their server. Its
// route p99 against the storm's at s tells the server's own share of the
// storm's effect from the machine's.
// A server given with -addr has no twin (Start hands back the same one):
// the phase is skipped, since seeding it again would take its brokers over.
func (e *Env) runWithStormAtTwin(s *seeded, route load.Stream) ([]report.Phase, error) {
	server, err := e.Start(s.server.Kind, s.spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ScenarioJMHTwin, err)
	}
	if server.Addr == s.server.Addr {
		e.Log.WithFields(logrus.Fields{"scenario": ScenarioJMHTwin, "target": s.server.Kind}).
			Warn("skipped: no twin can be started of a server given with -addr")
		return nil, nil
	}
	twin, err := e.seedOn(server, s.spec, s.regs, 0) // stops server on failure
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ScenarioJMHTwin, err)
	}
	defer twin.close()
	return e.runWithStorm(s, twin, ScenarioJMHTwin, jmhPause, route)
}

func mib(bytes int64) float64 { return float64(bytes) / (1 << 20) }
