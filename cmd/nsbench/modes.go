package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/baseline"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/senders"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/suite"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
)

// mode is one subcommand.
type mode struct {
	summary string
	run     func(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error
}

// measuringMode wraps a scenario into a mode that prints its report.
func measuringMode(summary string, measure func(e *scenario.Env, o *options) (scenario.Result, error)) mode {
	return mode{summary: summary, run: func(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error {
		e, err := newEnv(ctx, o, log)
		if err != nil {
			return err
		}
		result, err := measure(e, o)
		if err != nil {
			return err
		}
		r := newReport(o, result)
		return writeReport(stdout, o, &r)
	}}
}

var modes = map[string]mode{
	"route": measuringMode("seed B brokers with T topics, query random topics at each load of -loads, check every answer",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			loads, _ := parseLoads(o.loads)
			clients, _ := parseClients(o.routeHeaders)
			return scenario.Route(e, o.spec, loads, clients, nil)
		}),
	"tls-route": {summary: "route queries at the first load of -loads over plain TCP (TLS off) and over TLS (tls.server.mode=permissive), a fresh NameServer each, in -rounds rounds taking turns; prints the TLS target",
		run: runTLSRoute},
	"heartbeat": measuringMode("BROKER_HEARTBEAT, then QUERY_DATA_VERSION, for seeded brokers at the first load of -loads",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			loads, _ := parseLoads(o.loads)
			return scenario.Route(e, o.spec, nil, nil, &loads[0])
		}),
	"register": measuringMode("every broker re-registers every -interval with a changed table, a new data version of the same table, the unchanged body (-changed)",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			return scenario.Register(e, o.spec, o.interval, registerModes(o.changed))
		}),
	"mixed": measuringMode("route queries, registrations every -interval and heartbeats at once",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			loads, _ := parseLoads(o.loads)
			return scenario.Mixed(e, o.spec, loads[0], o.interval, scenario.Load{Conns: 8, InFlight: 1})
		}),
	"jmh-route": measuringMode("Java JMH shape: 4x8 brokers, 10,000 topics per cluster; route latency alone, then while every broker re-registers after 0-100 ms",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			loads, _ := parseLoads(o.loads)
			return scenario.JMH(e, loads[0], scenario.JMHParts{Storm: true, Rounds: o.stormRounds})
		}),
	"jmh-register": measuringMode("Java JMH shape: the 32 brokers re-register flat out, route latency measured meanwhile",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			loads, _ := parseLoads(o.loads)
			return scenario.JMH(e, loads[0], scenario.JMHParts{FlatOut: true})
		}),
	"scale": {summary: "100 clusters x 10 brokers, 100,000 topics: memory, cold registration, routes quiet and while all re-register every 30 s, the big lists, 100 brokers expiring, a 60,000-topic body whole, compressed and split, 50,000 clients; -out puts it into the page (make bench-scale)",
		run: runScale},
	"conns": measuringMode("open -n idle connections and report the server's memory per connection",
		func(e *scenario.Env, o *options) (scenario.Result, error) {
			return scenario.Conns(e, o.idleConns)
		}),
	"baseline": {summary: "run the zero-work baseline server for the layout flags until SIGTERM", run: runBaseline},
	"suite":    {summary: "run every scenario against a fresh NameServer and the baseline and write -out (docs/performance.md) and -svg", run: runSuite},
}

// registerModes turns the -changed flag into the register phases to run.
func registerModes(flagValue string) []load.RegisterMode {
	switch flagValue {
	case "changed":
		return []load.RegisterMode{load.RegisterChanged}
	case "new-version":
		return []load.RegisterMode{load.RegisterNewVersion}
	case "unchanged":
		return []load.RegisterMode{load.RegisterUnchanged}
	case "both":
		return []load.RegisterMode{load.RegisterChanged, load.RegisterUnchanged}
	default:
		return []load.RegisterMode{load.RegisterChanged, load.RegisterNewVersion, load.RegisterUnchanged}
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: nsbench MODE [flags]   (nsbench MODE -h lists the flags)")
	fmt.Fprintln(w, "modes:")
	names := make([]string, 0, len(modes))
	for name := range modes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-13s %s\n", name, modes[name].summary)
	}
}

// fileLimitMargin is the descriptors wanted beyond the connections a mode
// opens: broker connections, pipes, files.
const fileLimitMargin = 10000

// newEnv raises the open-file limit (inherited by the servers it starts) and
// builds the scenario environment for the flags.
func newEnv(ctx context.Context, o *options, log *logrus.Entry) (*scenario.Env, error) {
	if limit, err := proc.RaiseOpenFileLimitTo(uint64(max(o.idleConns, o.scaleClients) + fileLimitMargin)); err != nil {
		log.WithError(err).Warn("cannot raise the open file limit")
	} else if limit < uint64(o.idleConns+1000) {
		log.WithField("limit", limit).Warn("open file limit is low for the idle connection test (ulimit -Hn)")
	}
	profiles := &profileNames{dir: o.profileDir}
	if o.profileDir != "" {
		if err := os.MkdirAll(o.profileDir, 0o755); err != nil {
			return nil, fmt.Errorf("profile folder: %w", err)
		}
	}
	startWith := func(kind string, spec load.LayoutSpec, own ...string) (*target.Server, error) {
		profile := profiles.next(kind)
		if kind == report.TargetBaseline {
			return target.StartBaseline(spec, profile, own...)
		}
		if o.addr != "" {
			return target.External(kind, o.addr, o.pid), nil
		}
		extra := append(strings.Fields(o.namesrvArgs), own...)
		if profile != "" {
			return target.StartProfiledNamesrv(profile, extra...)
		}
		return target.StartNamesrv(o.namesrvBin, extra...)
	}
	env := &scenario.Env{
		Ctx:          ctx,
		Log:          log,
		Window:       load.Window{Warmup: o.warmup, Measure: o.duration},
		Targets:      o.targets(),
		StartSenders: startSenders(ctx, o, log),
		Start: func(kind string, spec load.LayoutSpec) (*target.Server, error) {
			return startWith(kind, spec)
		},
	}
	if o.addr == "" {
		env.StartWith = startWith // flags of a scenario's own need a server started here
	}
	return env, nil
}

func newReport(o *options, result scenario.Result) report.Report {
	report.FillHeadroom(result.Phases)
	return report.Report{
		Command: "nsbench " + strings.Join(os.Args[1:], " "),
		Started: time.Now(),
		Machine: proc.DescribeMachine(),
		Phases:  result.Phases,
		Facts:   result.Facts,
		Notes:   []string{"the load generator shares the machine's cores with the server: compare ratios measured in one run", sendersNote(o.senders)},
	}
}

// sendersNote says where the JMH storms' registrations came from.
func sendersNote(mode string) string {
	if mode == sendersLocal {
		return "jmh-route storm, jmh-register: the registrations were sent by this process, competing with its route clients for the cores (-senders local)"
	}
	return fmt.Sprintf("jmh-route storm, jmh-register: the registrations were sent by a child process at nice +%d (nsbench storm-senders), so the route clients and the server run first when the cores are busy", senders.Niceness)
}

// writeReport prints the table (or JSON) and draws the SVG if asked.
func writeReport(stdout io.Writer, o *options, r *report.Report) error {
	if o.svgPath != "" {
		if err := writeSVGFile(o.svgPath, r); err != nil {
			return err
		}
	}
	if o.jsonOut {
		return report.WriteJSON(stdout, r)
	}
	return report.WriteTable(stdout, r)
}

func writeSVGFile(path string, r *report.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("svg: %w", err)
	}
	chart := report.LatencyChart("GET_ROUTEINFO_BY_TOPIC latency against load", r.Phases, "route")
	if err := report.WriteSVG(f, chart); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("svg: %w", err)
	}
	return nil
}

// runBaseline serves until SIGINT/SIGTERM; StartBaseline runs it as a child.
func runBaseline(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error {
	log.Logger.SetLevel(logrus.WarnLevel)
	stopProfile, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	start := baseline.Start
	if o.baselineTLSCert != "" {
		start = func(addr string, spec load.LayoutSpec, log *logrus.Entry) (*baseline.Server, error) {
			return baseline.StartTLS(addr, spec, o.baselineTLSCert, o.baselineTLSKey, log)
		}
	}
	srv, err := start(o.listen, o.spec, log.WithField("component", "baseline"))
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "baseline listening on", srv.Addr())
	stopped, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-stopped.Done()
	return srv.Shutdown()
}

// profileNames numbers the CPU profiles of one run: namesrv-1.pprof,
// baseline-1.pprof, namesrv-2.pprof... in the order servers start.
type profileNames struct {
	dir   string
	count map[string]int
}

// next is the profile path of the next server of kind, "" when not profiling.
func (p *profileNames) next(kind string) string {
	if p.dir == "" {
		return ""
	}
	if p.count == nil {
		p.count = map[string]int{}
	}
	p.count[kind]++
	return filepath.Join(p.dir, fmt.Sprintf("%s-%d.pprof", kind, p.count[kind]))
}

// runTLSRoute is the suite's TLS step alone, with its target.
func runTLSRoute(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error {
	e, err := newEnv(ctx, o, log)
	if err != nil {
		return err
	}
	loads, _ := parseLoads(o.loads)
	result, err := scenario.TLSRoute(e, o.spec, loads[0], o.stormRounds)
	if err != nil {
		return err
	}
	r := newReport(o, result)
	r.Targets = []report.Target{suite.EvaluateTLS(&r)}
	return writeReport(stdout, o, &r)
}
