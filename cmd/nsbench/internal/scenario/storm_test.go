package scenario

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestStormRunsTheSendersBesideTheStreamsAndLeavesEveryBrokerRegistered(t *testing.T) {
	e := inProcessEnv(t)
	servers, err := e.seedAll(smallSpec, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(servers)
	brokers := len(load.NewLayout(smallSpec).Brokers())
	for _, s := range servers {
		phases, err := e.runWithStorm(s, s, "storm", time.Millisecond, load.RouteStream(s.layout, s.pipes, 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(phases) != 2 || phases[0].Op != "route" || phases[1].Op != "register-new-version" {
			t.Fatalf("%s: phases %+v", s.server.Kind, phases)
		}
		for _, p := range phases {
			if p.Requests == 0 || p.ErrorCount() != 0 || p.Scenario != "storm" || p.Target != s.server.Kind || p.ServerCPUMicrosPerOp != 0 {
				t.Errorf("%s %s: %+v", s.server.Kind, p.Op, p)
			}
		}
		if phases[1].Conns != brokers {
			t.Errorf("%s: registrations from %d connections, want one per broker (%d)", s.server.Kind, phases[1].Conns, brokers)
		}
	}
	// The senders' connections are closed; had the brokers stayed on them,
	// the NameServer would drop them as their closes arrive. Ask every
	// cluster's route for a while after.
	ns := servers[0]
	for range 50 {
		for c := range ns.layout.Clusters {
			topic := ns.layout.Clusters[c].Topics[0]
			resp, err := ns.clients[0].Invoke(e.Ctx, load.RouteRequest(topic))
			if err != nil {
				t.Fatal(err)
			}
			if kind := ns.layout.ExpectRoute(c)(resp); kind != "" {
				t.Fatalf("route of %s after the storm: %s (code %d %q)", topic, kind, resp.Code, resp.Remark)
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestStormAtATwinLeavesTheMeasuredServerAlone(t *testing.T) {
	e := inProcessEnv(t)
	servers, err := e.seedAll(smallSpec, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(servers)
	for _, s := range servers {
		twin, err := e.seed(s.server.Kind, s.spec, s.regs, 1)
		if err != nil {
			t.Fatal(err)
		}
		phases, err := e.runWithStorm(s, twin, ScenarioJMHTwin, time.Millisecond, load.RouteStream(s.layout, s.pipes, 1))
		if err != nil {
			t.Fatal(err)
		}
		if len(phases) != 2 || phases[0].Requests == 0 || phases[1].Requests == 0 || phases[0].Target != s.server.Kind {
			t.Fatalf("%s: phases %+v", s.server.Kind, phases)
		}
		// Every broker is back on the connection the twin seeded it on:
		// the twin still answers every cluster's route.
		for c := range twin.layout.Clusters {
			resp, err := twin.clients[0].Invoke(e.Ctx, load.RouteRequest(twin.layout.Clusters[c].Topics[0]))
			if err != nil {
				t.Fatal(err)
			}
			if kind := twin.layout.ExpectRoute(c)(resp); kind != "" {
				t.Fatalf("%s twin, cluster %d after the storm: %s", s.server.Kind, c, kind)
			}
		}
		// The storm's new data version reached the twin only: the measured
		// NameServer still holds the seeded one (the baseline answers a
		// fixed "unchanged" and tells nothing).
		if s.server.Kind == report.TargetNamesrv {
			broker := s.layout.Brokers()[0]
			resp, err := s.clients[0].Invoke(e.Ctx, load.QueryDataVersionRequest(broker, load.FirstVersion))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Code != remoting.SUCCESS || resp.ExtFields["changed"] != "false" {
				t.Fatalf("the measured NameServer's data version of %s moved: code %d, changed=%s", broker.Name, resp.Code, resp.ExtFields["changed"])
			}
		}
		twin.close()
	}
}

// TestNoTwinOfAServerGivenWithAddr: when Start hands back the measured
// server itself (-addr), the twin phase is skipped rather than seeding that
// server again, and every broker stays registered on it.
func TestNoTwinOfAServerGivenWithAddr(t *testing.T) {
	e := inProcessEnv(t)
	e.Targets = []string{report.TargetNamesrv}
	servers, err := e.seedAll(smallSpec, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll(servers)
	s := servers[0]
	e.Start = func(string, load.LayoutSpec) (*target.Server, error) { return s.server, nil }
	phases, err := e.runWithStormAtTwin(s, load.RouteStream(s.layout, s.pipes, 1))
	if err != nil || phases != nil {
		t.Fatalf("phases %+v, err %v: want the phase skipped", phases, err)
	}
	for c := range s.layout.Clusters {
		resp, err := s.clients[0].Invoke(e.Ctx, load.RouteRequest(s.layout.Clusters[c].Topics[0]))
		if err != nil {
			t.Fatal(err)
		}
		if kind := s.layout.ExpectRoute(c)(resp); kind != "" {
			t.Fatalf("cluster %d after the skipped phase: %s", c, kind)
		}
	}
}
