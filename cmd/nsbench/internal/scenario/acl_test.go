package scenario

import (
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// TestACLRouteMeasuresEveryModeInEveryRound: each round measures ACL off,
// anonymous and signed route queries on servers started with the flags
// ACLRoute gives (here read into an in-process config), and every answer
// checks: the unsigned queries were admitted, and the signed ones by a
// server that refuses unsigned route reads.
func TestACLRouteMeasuresEveryModeInEveryRound(t *testing.T) {
	e := inProcessEnv(t)
	var started [][]string
	e.StartWith = func(kind string, spec load.LayoutSpec, extra ...string) (*target.Server, error) {
		started = append(started, extra)
		mode := ACLModes[(len(started)-1)%len(ACLModes)]
		return startInProcessNamesrvWith(t, kind, func(cfg *config.Config) {
			if i := slices.Index(extra, "-aclFile"); i >= 0 && slices.Contains(extra, "-aclEnable") {
				cfg.AclEnable, cfg.AclFile = true, extra[i+1]
			}
			// the signed mode's server refuses unsigned reads: its queries
			// are answered only if they are signed
			cfg.AclAnonymousRouteRead = mode != ACLSigned
		})
	}
	result, err := ACLRoute(e, smallSpec, Load{Conns: 2, InFlight: 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range result.Phases {
		names = append(names, p.Scenario)
		if p.Target != report.TargetNamesrv || p.Op != "route" || p.Requests == 0 || p.ErrorCount() != 0 {
			t.Errorf("%s: target %s op %s, %d answered, %d errors", p.Scenario, p.Target, p.Op, p.Requests, p.ErrorCount())
		}
	}
	want := []string{"acl-off-r1", "acl-anonymous-r1", "acl-signed-r1", "acl-off-r2", "acl-anonymous-r2", "acl-signed-r2"}
	if !slices.Equal(names, want) {
		t.Fatalf("phases %v, want %v", names, want)
	}
	if len(started) != 6 || started[0] != nil || !slices.Contains(started[1], "-aclEnable") || !slices.Contains(started[2], "-aclEnable") {
		t.Fatalf("servers started with %q", started)
	}
}
