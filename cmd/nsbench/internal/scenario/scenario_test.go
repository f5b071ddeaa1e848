package scenario

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/baseline"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/senders"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// inProcessEnv starts real servers inside the test process: a NameServer
// from the namesrv package and a baseline, each stopped when the test ends.
// Their pid is this process, so CPU figures are present but mean little.
func inProcessEnv(t *testing.T) *Env {
	t.Helper()
	return &Env{
		Ctx:     context.Background(),
		Log:     testlog.Warnings(),
		Window:  load.Window{Warmup: 20 * time.Millisecond, Measure: 150 * time.Millisecond},
		Targets: []string{report.TargetNamesrv, report.TargetBaseline},
		StartSenders: func(job senders.Job) (*senders.Client, error) {
			return senders.Local(context.Background(), job, testlog.Warnings())
		},
		Start: func(kind string, spec load.LayoutSpec) (*target.Server, error) {
			if kind == report.TargetBaseline {
				srv, err := baseline.Start("127.0.0.1:0", spec, testlog.Warnings())
				if err != nil {
					return nil, err
				}
				t.Cleanup(func() { _ = srv.Shutdown() })
				return target.External(kind, srv.Addr(), 0), nil
			}
			return startInProcessNamesrv(t, kind, 0)
		},
	}
}

// startInProcessNamesrv starts a NameServer in this process (scan: its
// scanNotActiveBrokerInterval, 0 for the default), stopped at the test's end.
func startInProcessNamesrv(t *testing.T, kind string, scan time.Duration) (*target.Server, error) {
	return startInProcessNamesrvWith(t, kind, func(cfg *config.Config) {
		if scan > 0 {
			cfg.ScanNotActiveBrokerInterval = scan.Milliseconds()
		}
	})
}

// startInProcessNamesrvWith is startInProcessNamesrv with configure
// changing the config first.
func startInProcessNamesrvWith(t *testing.T, kind string, configure func(*config.Config)) (*target.Server, error) {
	cfg := config.Default()
	cfg.BindAddress, cfg.ListenPort, cfg.NeedWaitForService = "127.0.0.1", 0, false
	cfg.HTTPListenPort = -1 // never the default 9880 another test may hold
	configure(cfg)
	dir := t.TempDir()
	cfg.KvConfigPath, cfg.ConfigStorePath = filepath.Join(dir, "kv.json"), filepath.Join(dir, "ns.properties")
	ns, err := namesrv.New(config.NewSettings(cfg, testlog.Warnings()), testlog.Warnings())
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ns.Shutdown(ctx)
	})
	return target.External(kind, ns.Addr().String(), 0), nil
}

var smallSpec = load.LayoutSpec{Clusters: 2, BrokersPerCluster: 2, TopicsPerCluster: 10, QueueNums: 8}

func TestRouteAndHeartbeatAgainstBothServers(t *testing.T) {
	e := inProcessEnv(t)
	hb := Load{Conns: 2, InFlight: 1}
	result, err := Route(e, smallSpec, []Load{{Conns: 1, InFlight: 1}, {Conns: 2, InFlight: 2}}, []load.Client{load.JavaClient, load.GoClient}, &hb)
	if err != nil {
		t.Fatal(err)
	}
	// 2 loads x 2 header layouts x 2 servers route phases, then 2 ops x 2
	// servers heartbeats.
	if len(result.Phases) != 12 {
		t.Fatalf("%d phases", len(result.Phases))
	}
	for _, p := range result.Phases {
		if p.Requests == 0 || p.ErrorCount() != 0 {
			t.Errorf("%s %s %s %dx%d: %d answers, errors %v", p.Scenario, p.Target, p.Op, p.Conns, p.InFlight, p.Requests, p.Errors)
		}
	}
	r := report.Report{Phases: result.Phases, Facts: result.Facts}
	for _, target := range []string{report.TargetNamesrv, report.TargetBaseline} {
		if p, ok := r.Find("route", target, "route-go"); !ok || p.Requests == 0 {
			t.Fatalf("%s route-go phase %+v %v", target, p, ok)
		}
	}
	if p, ok := r.Find("heartbeat", report.TargetBaseline, "query-data-version"); !ok || p.Conns != 2 {
		t.Fatalf("baseline query-data-version phase %+v %v", p, ok)
	}
	real, _ := r.Fact("namesrv route answer body")
	fake, _ := r.Fact("baseline route answer body")
	if real == 0 || real != fake {
		t.Fatalf("route answer bodies: namesrv %v, baseline %v bytes", real, fake)
	}
}

func TestRegisterChangedAndUnchanged(t *testing.T) {
	e := inProcessEnv(t)
	e.Targets = []string{report.TargetNamesrv}
	modes := []load.RegisterMode{load.RegisterChanged, load.RegisterNewVersion, load.RegisterUnchanged}
	result, err := Register(e, smallSpec, time.Millisecond, modes)
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Phases) != 3 || result.Phases[0].Op != "register-changed" || result.Phases[1].Op != "register-new-version" ||
		result.Phases[2].Op != "register-unchanged" {
		t.Fatalf("phases %+v", result.Phases)
	}
	for _, p := range result.Phases {
		if p.Requests == 0 || p.ErrorCount() != 0 || p.Conns != len(load.NewLayout(smallSpec).Brokers()) {
			t.Errorf("%s: %+v", p.Op, p)
		}
	}
}

func TestMixedRunsThreeStreamsAtOnce(t *testing.T) {
	e := inProcessEnv(t)
	e.Targets = []string{report.TargetNamesrv}
	result, err := Mixed(e, smallSpec, Load{Conns: 2, InFlight: 1}, 10*time.Millisecond, Load{Conns: 1, InFlight: 1})
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, p := range result.Phases {
		ops[p.Op] = p.Requests > 0 && p.ErrorCount() == 0
	}
	if !ops["route"] || !ops["register-new-version"] || !ops["heartbeat"] {
		t.Fatalf("streams that ran cleanly: %v", ops)
	}
}

func TestConnsReportsMemoryFactsPerTarget(t *testing.T) {
	e := inProcessEnv(t)
	result, err := Conns(e, 20)
	if err != nil {
		t.Fatal(err)
	}
	r := report.Report{Facts: result.Facts}
	for _, kind := range e.Targets {
		if _, ok := r.Fact(kind + " bytes per idle connection"); !ok {
			t.Errorf("no per-connection figure for %s: %+v", kind, result.Facts)
		}
	}
}

func TestLoadString(t *testing.T) {
	if got := (Load{Conns: 64, InFlight: 8}).String(); got != "64x8" {
		t.Fatalf("got %q", got)
	}
}
