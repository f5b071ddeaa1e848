package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/suite"
)

// Sizes of the suite: the figures, each measured against a fresh
// NameServer and a fresh baseline.
var (
	suiteRouteSpec    = load.LayoutSpec{Clusters: 1, BrokersPerCluster: 8, TopicsPerCluster: 100, QueueNums: 8}
	suiteRouteLoads   = []scenario.Load{{Conns: 1, InFlight: 1}, {Conns: 8, InFlight: 1}, suite.Load64x1, suite.Load64x8}
	suiteHeartbeat    = suite.Load64x8
	suiteRegisterSpec = load.LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 10000, QueueNums: 8}
	suiteJMHRouteLoad = scenario.Load{Conns: 4, InFlight: 1}
)

// runSuite measures everything the issue asks for and writes the page.
func runSuite(ctx context.Context, o *options, stdout io.Writer, log *logrus.Entry) error {
	if o.addr != "" || o.against != "both" {
		return errors.New("suite starts its own NameServer and baseline: drop -addr and -against")
	}
	e, err := newEnv(ctx, o, log)
	if err != nil {
		return err
	}
	idleConns := o.idleConns
	if o.quick {
		e.Window = load.Window{Warmup: 300 * time.Millisecond, Measure: time.Second}
		idleConns = min(idleConns, 1000)
	}
	loadBefore := proc.LoadAverage()
	steps := []struct {
		name    string
		measure func() (scenario.Result, error)
	}{
		{"route and heartbeats", func() (scenario.Result, error) {
			return scenario.Route(e, suiteRouteSpec, suiteRouteLoads, suite.RouteClients, &suiteHeartbeat)
		}},
		{"registrations", func() (scenario.Result, error) {
			return scenario.Register(e, suiteRegisterSpec, 0, registerModes("all"))
		}},
		{"jmh shapes", func() (scenario.Result, error) {
			return scenario.JMH(e, suiteJMHRouteLoad, scenario.JMHParts{Storm: true, FlatOut: true, Rounds: o.stormRounds})
		}},
		{"acl route reads", func() (scenario.Result, error) {
			return scenario.ACLRoute(e, suiteRouteSpec, suite.Load64x8, o.stormRounds)
		}},
		{"tls route reads", func() (scenario.Result, error) {
			return scenario.TLSRoute(e, suiteRouteSpec, suite.Load64x8, o.stormRounds)
		}},
		{"idle connections", func() (scenario.Result, error) { return scenario.Conns(e, idleConns) }},
	}
	var all scenario.Result
	for _, step := range steps {
		log.WithField("step", step.name).Info("suite step")
		result, err := step.measure()
		if err != nil {
			return fmt.Errorf("suite step %s: %w", step.name, err)
		}
		all.Phases = append(all.Phases, result.Phases...)
		all.Facts = append(all.Facts, result.Facts...)
	}
	r := newReport(o, all)
	r.Mode = "suite"
	r.Notes = append(r.Notes,
		fmt.Sprintf("load average before the run %s, after %s (other work on the machine competes for the cores)", loadBefore, proc.LoadAverage()),
		fmt.Sprintf("each phase: %v warm-up, %v measured", e.Window.Warmup, e.Window.Measure))
	goBench, err := readGoBench(o.goBenchPath)
	if err != nil {
		return err
	}
	if o.floodReport != "" {
		page, err := os.ReadFile(o.floodReport)
		if err != nil {
			return fmt.Errorf("flood report: %w", err)
		}
		facts, err := suite.FloodFacts(string(page))
		if err != nil {
			return fmt.Errorf("flood report %s: %w", o.floodReport, err)
		}
		r.Facts = append(r.Facts, facts...)
	}
	r.Targets = suite.Evaluate(&r, suite.ParseGoBench(goBench), idleConns)
	return writeSuiteOutputs(stdout, o, &r, goBench)
}

// writeSuiteOutputs writes the SVG, the markdown page and the JSON file,
// then prints the table.
func writeSuiteOutputs(stdout io.Writer, o *options, r *report.Report, goBench string) error {
	chartRef := ""
	if o.svgPath != "" {
		if err := writeSVGFile(o.svgPath, r); err != nil {
			return err
		}
		chartRef = o.svgPath
		if o.markdownPath != "" {
			if rel, err := filepath.Rel(filepath.Dir(o.markdownPath), o.svgPath); err == nil {
				chartRef = rel
			}
		}
	}
	if o.markdownPath != "" {
		page := suite.Page{Report: r, GoBenchOutput: goBench, ChartFile: chartRef, Commands: suiteCommands(o)}
		if old, err := os.ReadFile(o.markdownPath); err == nil {
			page.ScaleSection = suite.ExtractScaleSection(string(old)) // make bench-scale's block stays
		}
		if err := writeFile(o.markdownPath, func(w io.Writer) error { return suite.WriteMarkdown(w, page) }); err != nil {
			return err
		}
	}
	if o.jsonPath != "" {
		if err := writeFile(o.jsonPath, func(w io.Writer) error { return report.WriteJSON(w, r) }); err != nil {
			return err
		}
	}
	if o.jsonOut {
		return report.WriteJSON(stdout, r)
	}
	return report.WriteTable(stdout, r)
}

// suiteCommands are the commands a reader runs to get the page again.
func suiteCommands(o *options) []string {
	return []string{
		"make bench            # all of the below",
		"# or step by step:",
		"go build -o bin/ ./cmd/namesrv ./cmd/nsbench",
		"go test -run '^$' -bench . -skip BenchmarkScale -benchmem ./remoting/ ./route/ > /tmp/gobench.txt",
		"FAULTS_FULL=1 FAULTS_REPORT=/tmp/flood.md go test -count=1 -run '^" + suite.FloodCase + "$' ./test/faults/",
		fmt.Sprintf("bin/nsbench suite -namesrv %s -gobench /tmp/gobench.txt -flood-report /tmp/flood.md -out %s -svg %s", o.namesrvBin, o.markdownPath, o.svgPath),
		"# one mode at a time, e.g. route queries at three loads against both servers:",
		"bin/nsbench route -loads 1x1,64x1,64x8 -svg /tmp/route.svg",
	}
}

// writeFile creates path and writes it with write, reporting close errors.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// readGoBench reads the saved output of go test -bench ("" for no file).
func readGoBench(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read go benchmarks: %w", err)
	}
	return string(raw), nil
}
