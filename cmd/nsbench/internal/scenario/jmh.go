package scenario

import (
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
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
	ScenarioJMHRegister = "jmh-register"
)

// JMHParts selects the phases of JMH.
type JMHParts struct {
	// Storm: route queries while every broker re-registers after a random
	// 0-100 ms (jmh-route), after the same queries with no registrations.
	Storm bool
	// FlatOut: every broker re-registers back to back (jmh-register), with
	// the route queries still measured.
	FlatOut bool
}

// JMH loads JMHSpec into every target, reports its resident memory, then
// runs the selected phases. Route queries run at routeLoad (JMH used 4
// threads: 4x1); every registration carries a new data version, as the JMH
// brokers call nextVersion() each time.
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
	for _, s := range servers {
		route := func() load.Stream { return load.RouteStream(s.layout, s.clients[:routeLoad.Conns], routeLoad.InFlight) }
		var runs [][]load.Stream
		var names []string
		if parts.Storm {
			runs = append(runs, []load.Stream{route()},
				[]load.Stream{route(), load.RegisterStream(s.regs, s.brokers, load.RegisterNewVersion, load.UniformPause(jmhPause))})
			names = append(names, ScenarioJMHQuiet, ScenarioJMHStorm)
		}
		if parts.FlatOut {
			runs = append(runs, []load.Stream{route(), load.RegisterStream(s.regs, s.brokers, load.RegisterNewVersion, nil)})
			names = append(names, ScenarioJMHRegister)
		}
		for i, streams := range runs {
			phases, err := e.run(s, names[i], streams...)
			if err != nil {
				return result, err
			}
			result.Phases = append(result.Phases, phases...)
		}
	}
	return result, nil
}

func mib(bytes int64) float64 { return float64(bytes) / (1 << 20) }
