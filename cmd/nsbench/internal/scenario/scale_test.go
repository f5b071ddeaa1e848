package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
)

func TestScaleRunsEveryPhaseOnASmallLayout(t *testing.T) {
	e := inProcessEnv(t)
	e.Start = func(kind string, _ load.LayoutSpec) (*target.Server, error) {
		return startInProcessNamesrv(t, kind, 100*time.Millisecond)
	}
	spec := ScaleSpec{
		Layout:  load.LayoutSpec{Clusters: 3, BrokersPerCluster: 2, TopicsPerCluster: 20, QueueNums: 8},
		Refresh: 100 * time.Millisecond, ExpireBrokers: 2, ExpiryTimeout: 300 * time.Millisecond, ScanInterval: 100 * time.Millisecond,
		Clients: 30, ClientPeriod: 200 * time.Millisecond, Sources: []string{"127.0.0.1", "127.0.0.2"},
		BigTopics: 1000, SplitSize: 300,
	}
	result, err := Scale(e, spec, Load{Conns: 2, InFlight: 1})
	if err != nil {
		t.Fatal(err)
	}
	scenarios := map[string]int{}
	for _, p := range result.Phases {
		scenarios[p.Scenario]++
		if p.Requests == 0 || p.ErrorCount() != 0 {
			t.Errorf("%s %s: %+v", p.Scenario, p.Op, p)
		}
	}
	want := map[string]int{ScenarioScaleQuiet: 1, ScenarioScaleRefresh: 2, ScenarioScaleLists: 3, ScenarioScaleExpiry: 1, ScenarioScaleClients: 1}
	for name, n := range want {
		if scenarios[name] != n {
			t.Errorf("%s: %d phases, want %d (%v)", name, scenarios[name], n, scenarios)
		}
	}
	facts := map[string]report.Fact{}
	for _, f := range result.Facts {
		facts[f.Name] = f
	}
	for _, name := range []string{"GET_ALL_TOPIC_LIST_FROM_NAMESERVER answer body", "GET_BROKER_CLUSTER_INFO answer body",
		"1000-topic registration, split into frames of 300 topics, new data version (4 frame(s)): body"} {
		if f, ok := facts[name]; !ok || f.Value <= 0 {
			t.Errorf("fact %q: %+v (%v)", name, f, ok)
		}
	}
	for name := range facts {
		if strings.Contains(name, "cold registration") {
			return
		}
	}
	t.Error("no cold registration figure")
}
