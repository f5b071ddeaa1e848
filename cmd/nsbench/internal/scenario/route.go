package scenario

import (
	"fmt"
	"slices"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

// Route seeds spec into every target, then for each load and each client's
// header layout queries random topics against each target in turn (so a
// drift of the shared machine hits both alike). With heartbeat set, it then
// measures BROKER_HEARTBEAT and QUERY_DATA_VERSION at that load on the same
// servers.
func Route(e *Env, spec load.LayoutSpec, loads []Load, clients []load.Client, heartbeat *Load) (Result, error) {
	maxConns := 1
	for _, l := range append(slices.Clone(loads), derefOr(heartbeat)) {
		maxConns = max(maxConns, l.Conns)
	}
	servers, err := e.seedAll(spec, maxConns)
	if err != nil {
		return Result{}, err
	}
	defer closeAll(servers)
	var result Result
	for _, s := range servers {
		size, err := routeAnswerSize(e, s)
		if err != nil {
			return Result{}, err
		}
		result.fact(s.server.Kind+" route answer body", float64(size), "bytes")
	}
	for _, l := range loads {
		for _, client := range clients {
			for _, s := range servers {
				phases, err := e.run(s, "route", load.RouteStreamAs(client, s.layout, s.pipes[:l.Conns], l.InFlight))
				if err != nil {
					return result, err
				}
				result.Phases = append(result.Phases, phases...)
			}
		}
	}
	if heartbeat == nil {
		return result, nil
	}
	for _, queryDataVersion := range []bool{false, true} {
		for _, s := range servers {
			phases, err := e.run(s, "heartbeat", load.HeartbeatStream(s.layout, s.pipes[:heartbeat.Conns], heartbeat.InFlight, queryDataVersion))
			if err != nil {
				return result, err
			}
			result.Phases = append(result.Phases, phases...)
		}
	}
	return result, nil
}

func derefOr(l *Load) Load {
	if l == nil {
		return Load{}
	}
	return *l
}

// routeAnswerSize asks one seeded topic's route and checks it, so a run
// that would measure wrong answers stops before it starts.
func routeAnswerSize(e *Env, s *seeded) (int, error) {
	topic, c := s.layout.Topic(0)
	resp, err := s.clients[0].Invoke(e.Ctx, load.RouteRequest(topic))
	if err != nil {
		return 0, fmt.Errorf("probe route of %s on %s: %w", topic, s.server.Kind, err)
	}
	if kind := s.layout.ExpectRoute(c)(resp); kind != "" {
		return 0, fmt.Errorf("probe route of %s on %s: %s (code %d, remark %q): %w",
			topic, s.server.Kind, kind, resp.Code, resp.Remark, load.ErrBadAnswer)
	}
	return len(resp.Body), nil
}
