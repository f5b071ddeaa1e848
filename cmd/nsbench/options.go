package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/suite"
)

// options are every mode's flags; each mode reads the ones it needs.
type options struct {
	addr       string
	pid        int
	namesrvBin string
	against    string
	warmup     time.Duration
	duration   time.Duration
	loads      string
	// routeHeaders names the clients whose header layouts the route queries
	// copy (-route-headers).
	routeHeaders string
	spec         load.LayoutSpec
	interval     time.Duration
	changed      string
	idleConns    int
	// stormRounds is the number of jmh-route storm rounds per server.
	stormRounds int
	// scaleClients and scaleSources: the scale mode's client connections
	// and the local addresses they come from.
	scaleClients int
	scaleSources string
	jsonOut      bool
	svgPath      string
	listen       string
	// baselineTLSCert and baselineTLSKey make the baseline serve TLS.
	baselineTLSCert, baselineTLSKey string
	cpuProfile                      string
	// selfProfile is where the load generator's own CPU profile goes.
	selfProfile string
	// namesrvArgs are extra flags for every NameServer started.
	namesrvArgs string
	// senders is where the JMH storm's registrations come from: a niced
	// child process (sendersChild) or this process (sendersLocal).
	senders string
	// profileDir, when set, gets a CPU profile of every server started.
	profileDir string
	// suite only
	goBenchPath string
	// floodReport is a fault report page (test/faults' FAULTS_REPORT)
	// holding the 2 MB registration flood's row, for the flood target.
	floodReport  string
	markdownPath string
	jsonPath     string
	quick        bool
	// security signs and encrypts the route clients (security.go).
	security securityFlags
}

// defaultOptions are the defaults of a mode: the sizes the issue names.
func defaultOptions(mode string) *options {
	o := &options{
		namesrvBin:   "bin/namesrv",
		against:      "both",
		warmup:       time.Second,
		duration:     5 * time.Second,
		loads:        "64x1,64x8",
		routeHeaders: "java",
		spec:         load.LayoutSpec{Clusters: 1, BrokersPerCluster: 8, TopicsPerCluster: 100, QueueNums: 8},
		changed:      "both",
		idleConns:    10000,
		stormRounds:  scenario.StormRounds,
		scaleClients: scenario.ScaleDefaults.Clients,
		scaleSources: strings.Join(scenario.ScaleDefaults.Sources, ","),
		listen:       "127.0.0.1:0",
		senders:      sendersChild,
	}
	switch mode {
	case "register":
		o.spec = load.LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 10000, QueueNums: 8}
	case "heartbeat":
		o.loads = "64x8"
	case "mixed":
		o.loads = "64x1"
		o.interval = time.Second
	case "jmh-route", "jmh-register":
		o.loads = "4x1"
		o.spec = scenario.JMHSpec
	case "suite":
		o.markdownPath = "docs/performance.md"
		o.svgPath = "docs/route-latency.svg"
	}
	return o
}

func (o *options) flagSet(mode string, output io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("nsbench "+mode, flag.ContinueOnError)
	fs.SetOutput(output)
	fs.StringVar(&o.addr, "addr", o.addr, "load a NameServer already listening here instead of starting -namesrv")
	fs.IntVar(&o.pid, "pid", o.pid, "process id of the -addr server, to read its CPU time and memory")
	fs.StringVar(&o.namesrvBin, "namesrv", o.namesrvBin, "NameServer binary to start (a fresh one per scenario)")
	fs.StringVar(&o.against, "against", o.against, "servers to measure: namesrv, baseline or both")
	fs.DurationVar(&o.warmup, "warmup", o.warmup, "warm-up before each measured phase")
	fs.DurationVar(&o.duration, "duration", o.duration, "measured time of each phase")
	fs.StringVar(&o.loads, "loads", o.loads, "comma-separated loads, CONNSxINFLIGHT (route: one phase each; other modes use the first)")
	fs.StringVar(&o.routeHeaders, "route-headers", o.routeHeaders, "route: comma-separated header layouts of the route queries, one phase each per load: java (the Java client's JSON), go (rocketmq-client-go's JSON), binary (ROCKETMQ)")
	fs.IntVar(&o.spec.Clusters, "clusters", o.spec.Clusters, "clusters to seed")
	fs.IntVar(&o.spec.BrokersPerCluster, "brokers", o.spec.BrokersPerCluster, "brokers per cluster, each on its own connection")
	fs.IntVar(&o.spec.TopicsPerCluster, "topics", o.spec.TopicsPerCluster, "topics per cluster, registered by every broker of the cluster")
	queues := int(o.spec.QueueNums)
	fs.Func("queues", fmt.Sprintf("read and write queues per topic (default %d)", queues), func(text string) error {
		n, err := strconv.ParseInt(text, 10, 32)
		if err != nil || n <= 0 {
			return fmt.Errorf("queues %q: want a positive number", text)
		}
		o.spec.QueueNums = int32(n)
		return nil
	})
	fs.DurationVar(&o.interval, "interval", o.interval, "register/mixed: wait before each re-registration (0: flat out)")
	fs.StringVar(&o.changed, "changed", o.changed, "register: what each registration sends: changed (new version, new table), new-version (same table), unchanged, both (changed and unchanged) or all")
	fs.IntVar(&o.idleConns, "n", o.idleConns, "conns: idle connections to open")
	fs.IntVar(&o.scaleClients, "clients", o.scaleClients, "scale: client connections, each querying one route per 30 s")
	fs.StringVar(&o.scaleSources, "sources", o.scaleSources, "scale: comma-separated local addresses the client connections come from (each has ~28,000 ephemeral ports)")
	fs.IntVar(&o.stormRounds, "rounds", o.stormRounds, "jmh-route, suite: storm rounds per server, the servers taking turns (the storm target is the median)")
	fs.BoolVar(&o.jsonOut, "json", o.jsonOut, "print one JSON object instead of the table")
	fs.StringVar(&o.svgPath, "svg", o.svgPath, "draw route latency percentiles against load into this SVG file")
	fs.StringVar(&o.listen, "listen", o.listen, "baseline: listen address")
	fs.StringVar(&o.baselineTLSCert, "tls-cert", "", "baseline: serve TLS with this certificate (with -tls-key)")
	fs.StringVar(&o.baselineTLSKey, "tls-key", "", "baseline: key of -tls-cert")
	fs.StringVar(&o.namesrvArgs, "namesrv-args", o.namesrvArgs, "extra flags for every NameServer started, e.g. \"-defaultThreadPoolNums 1\"")
	fs.StringVar(&o.senders, "senders", o.senders, "jmh-route, jmh-register: send the registration storm from a child process at nice +10 (child) or from this process, competing with the route clients (local)")
	fs.StringVar(&o.profileDir, "profile", o.profileDir, "write a CPU profile of every server started into this folder (the NameServer then runs inside nsbench: 'nsbench namesrv')")
	fs.StringVar(&o.cpuProfile, "cpuprofile", o.cpuProfile, "baseline: write a CPU profile here when stopped")
	fs.StringVar(&o.selfProfile, "self-profile", o.selfProfile, "write a CPU profile of this process (the load generator) here")
	fs.StringVar(&o.goBenchPath, "gobench", o.goBenchPath, "suite, scale: output of 'go test -bench' to include")
	fs.StringVar(&o.floodReport, "flood-report", o.floodReport, "suite: fault report (FAULTS_REPORT of test/faults) with the row of "+suite.FloodCase+", for the flood target")
	fs.StringVar(&o.markdownPath, "out", o.markdownPath, "suite: markdown report to write; scale: the page whose scale section is (re)written")
	fs.StringVar(&o.jsonPath, "json-file", o.jsonPath, "suite: also write the JSON report here")
	fs.BoolVar(&o.quick, "quick", o.quick, "suite: short phases, for a smoke run (figures are noisy)")
	o.security.register(fs)
	return fs
}

func (o *options) validate() error {
	switch o.against {
	case "namesrv", "baseline", "both":
	default:
		return fmt.Errorf("-against %q: want namesrv, baseline or both", o.against)
	}
	switch o.changed {
	case "changed", "new-version", "unchanged", "both", "all":
	default:
		return fmt.Errorf("-changed %q: want changed, new-version, unchanged, both or all", o.changed)
	}
	if o.senders != sendersChild && o.senders != sendersLocal {
		return fmt.Errorf("-senders %q: want %s or %s", o.senders, sendersChild, sendersLocal)
	}
	if o.stormRounds < 1 {
		return fmt.Errorf("-rounds %d: want at least 1", o.stormRounds)
	}
	if o.spec.Clusters <= 0 || o.spec.BrokersPerCluster <= 0 || o.spec.TopicsPerCluster <= 0 {
		return fmt.Errorf("layout %s: every count must be positive", o.spec)
	}
	if o.duration <= 0 || o.warmup < 0 {
		return fmt.Errorf("-duration %v -warmup %v: want a positive duration and a warm-up >= 0", o.duration, o.warmup)
	}
	if _, err := parseClients(o.routeHeaders); err != nil {
		return err
	}
	_, err := parseLoads(o.loads)
	return err
}

// parseClients reads "java,go,binary".
func parseClients(text string) ([]load.Client, error) {
	var clients []load.Client
	for _, name := range strings.Split(text, ",") {
		c, err := load.ParseClient(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("-route-headers %q: %w", text, err)
		}
		clients = append(clients, c)
	}
	return clients, nil
}

// parseLoads reads "64x1,64x8".
func parseLoads(text string) ([]scenario.Load, error) {
	var loads []scenario.Load
	for _, item := range strings.Split(text, ",") {
		connsText, inFlightText, found := strings.Cut(strings.TrimSpace(item), "x")
		conns, errConns := strconv.Atoi(connsText)
		inFlight, errInFlight := strconv.Atoi(inFlightText)
		if !found || errConns != nil || errInFlight != nil || conns <= 0 || inFlight <= 0 {
			return nil, fmt.Errorf("-loads %q: %q is not CONNSxINFLIGHT with positive numbers", text, item)
		}
		loads = append(loads, scenario.Load{Conns: conns, InFlight: inFlight})
	}
	return loads, nil
}

// targets are the server kinds -against names, namesrv first.
func (o *options) targets() []string {
	switch o.against {
	case "namesrv":
		return []string{"namesrv"}
	case "baseline":
		return []string{"baseline"}
	default:
		return []string{"namesrv", "baseline"}
	}
}
