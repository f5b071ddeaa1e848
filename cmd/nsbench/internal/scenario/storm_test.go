package scenario

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
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
		phases, err := e.runWithStorm(s, "storm", time.Millisecond, load.RouteStream(s.layout, s.clients, 1))
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
