package scenario

import (
	"math/rand/v2"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

// Register seeds spec into every target, then has every broker re-register
// on its own connection, one phase per mode (a changed table, a new data
// version of the same table, the unchanged body), waiting interval before
// each registration (0: flat out). Each phase runs alone, so its server CPU
// per registration is known.
func Register(e *Env, spec load.LayoutSpec, interval time.Duration, modes []load.RegisterMode) (Result, error) {
	servers, err := e.seedAll(spec, 1)
	if err != nil {
		return Result{}, err
	}
	defer closeAll(servers)
	result := Result{}
	result.fact("registration body", float64(servers[0].regs.BodySize(0)), "bytes")
	for _, mode := range modes {
		for _, s := range servers {
			phases, err := e.run(s, "register", load.RegisterStream(s.regs, s.brokers, mode, fixedPause(interval)))
			if err != nil {
				return result, err
			}
			result.Phases = append(result.Phases, phases...)
		}
	}
	return result, nil
}

// fixedPause waits interval before each request; nil (flat out) for 0.
func fixedPause(interval time.Duration) func(*rand.Rand) time.Duration {
	if interval <= 0 {
		return nil
	}
	return func(*rand.Rand) time.Duration { return interval }
}

// Mixed runs route queries at routeLoad, every broker re-registering after
// interval with a new data version of the same table (so route answers stay
// what the checks expect), and heartbeats from hb connections,
// all at once: the daily life of a NameServer, compressed.
func Mixed(e *Env, spec load.LayoutSpec, routeLoad Load, interval time.Duration, hb Load) (Result, error) {
	servers, err := e.seedAll(spec, routeLoad.Conns+hb.Conns)
	if err != nil {
		return Result{}, err
	}
	defer closeAll(servers)
	var result Result
	for _, s := range servers {
		phases, err := e.run(s, "mixed",
			load.RouteStream(s.layout, s.pipes[:routeLoad.Conns], routeLoad.InFlight),
			load.RegisterStream(s.regs, s.brokers, load.RegisterNewVersion, fixedPause(interval)),
			load.HeartbeatStream(s.layout, s.pipes[routeLoad.Conns:], hb.InFlight, false))
		if err != nil {
			return result, err
		}
		result.Phases = append(result.Phases, phases...)
	}
	return result, nil
}
