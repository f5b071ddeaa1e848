package suite

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
	"github.com/gonamesrv/gonamesrv/internal/mdblock"
)

// Markers around the block make bench-scale writes into the page; make
// bench keeps the block when it writes the rest.
const (
	scaleBegin = "<!-- bench-scale: begin (written by make bench-scale; make bench keeps it) -->"
	scaleEnd   = "<!-- bench-scale: end -->"
)

// scaleMemoryLimitMiB is the target for the 100,000-topic layout.
const scaleMemoryLimitMiB = 384

// ScaleSection is the page block for one scale run: what was measured, the
// phases, the figures, the in-process benchmarks (goBench, may be empty)
// and the commands, between the markers.
func ScaleSection(r *report.Report, goBench string, commands []string) string {
	var b strings.Builder
	b.WriteString(scaleBegin + "\n")
	fmt.Fprintf(&b, "## Scale: 100,000 topics on 1,000 brokers\n\nMeasured by `make bench-scale` on %s (%s, %d logical CPUs; other work on the machine competes for the cores). 100 clusters of 10 brokers, each topic on the 10 brokers of its cluster, 8 queues: 1,000,000 queue datas. One NameServer, the phases one after the other: route queries alone (scale quiet) and while every broker re-registers its unchanged table every 30 s on average (scale re-registering); the three big lists from one client; route queries for the other clusters while 100 brokers expire at once (scale expiry); a 60,000-topic broker registering in one JSON frame, one compressed frame and frames of 800 topics; first of all, on a NameServer of its own with one cluster loaded, %s client connections each asking for one route once in 30 s (scale clients).\n\n",
		r.Started.UTC().Format("2006-01-02 15:04 UTC"), r.Machine.CPUModel, r.Machine.CPUs, clientCount(r))
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	for _, t := range r.Targets {
		fmt.Fprintf(&b, "- **%s**: %s (%s)\n", t.Goal, t.Measured, metWord(t.Met))
	}
	b.WriteString("\n")
	writePhaseTable(&b, r.Phases)
	writeFactTable(&b, r.Facts)
	if strings.TrimSpace(goBench) != "" {
		b.WriteString("\nIn-process (`go test -run '^$' -bench Scale -benchtime 3x ./route/ ./namesrv/`), the same data loaded: the time under the route tables' writer lock to remove the same 100 brokers by one expiry scan, by 100 connection closes one at a time, by the 100 closes in one batch (what the unregistration worker does since session 3) and by one batch of 100 UNREGISTER_BROKER; then the lists, read from a snapshot without the lock; then the cold registration of all 1,000 brokers into an empty route table. Last (BenchmarkScaleWarmStart, package namesrv), the warm start from a peer holding the layout: the time from a NameServer's start to its listener accepting connections with every route in, borrowed from the peer over code 5002 (ns/op the mean of 3 starts, slowest-ms-to-serve the slowest; every topic's route is then checked against the peer's, 1,000 of them over the wire).\n\n```text\n")
		b.WriteString(strings.TrimSpace(goBench))
		b.WriteString("\n```\n")
	}
	b.WriteString("\n```sh\n")
	for _, c := range commands {
		b.WriteString(c + "\n")
	}
	b.WriteString("```\n")
	b.WriteString(scaleEnd)
	return b.String()
}

// ScaleTargets checks the scale run's memory target.
func ScaleTargets(r *report.Report) []report.Target {
	goal := fmt.Sprintf("100,000 topics on 1,000 brokers: peak resident memory <= %d MiB", scaleMemoryLimitMiB)
	peak, ok := r.Fact(scenario.FactScalePeak)
	if !ok || peak <= 0 {
		return []report.Target{{Goal: goal, Measured: "not measured in this run"}}
	}
	return []report.Target{{Goal: goal, Met: peak <= scaleMemoryLimitMiB, Measured: fmt.Sprintf("%.0f MiB peak (VmHWM) with the layout registered, queried, re-registering, listed and 100 brokers expired", peak)}}
}

// scaleBlock is where the scale block sits in docs/performance.md.
var scaleBlock = mdblock.Block{Begin: scaleBegin, End: scaleEnd, Before: notesHeading}

// ExtractScaleSection returns the scale block of a page, "" when it has none.
func ExtractScaleSection(page string) string { return scaleBlock.Extract(page) }

// ReplaceScaleSection puts section into page in place of its scale block,
// or before the hand-written notes when it has none.
func ReplaceScaleSection(page, section string) string { return scaleBlock.Replace(page, section) }

// notesHeading starts the hand-written notes of the page.
const notesHeading = "## Method"

func metWord(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}

// clientCount is the connection count of the run's scale clients phase.
func clientCount(r *report.Report) string {
	for _, p := range r.Phases {
		if p.Scenario == scenario.ScenarioScaleClients {
			return fmt.Sprintf("%d", p.Conns)
		}
	}
	return "no"
}
