package suite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/scenario"
)

func scaleRun(peakMiB float64) *report.Report {
	r := &report.Report{
		Phases: []report.Phase{{Scenario: scenario.ScenarioScaleQuiet, Target: report.TargetNamesrv, Op: "route", Conns: 4, InFlight: 1, PerSecond: 1000}},
		Facts:  []report.Fact{{Name: scenario.FactScalePeak, Value: peakMiB, Unit: "MiB"}},
	}
	r.Targets = ScaleTargets(r)
	return r
}

func TestScaleTargetIsThePeakMemory(t *testing.T) {
	if got := ScaleTargets(scaleRun(300)); len(got) != 1 || !got[0].Met {
		t.Fatalf("300 MiB: %+v", got)
	}
	if got := ScaleTargets(scaleRun(400)); got[0].Met {
		t.Fatalf("400 MiB met: %+v", got)
	}
	if got := ScaleTargets(&report.Report{}); got[0].Met || got[0].Measured != "not measured in this run" {
		t.Fatalf("nothing measured: %+v", got)
	}
}

func TestTheScaleBlockIsReplacedInPlaceAndSurvivesMakeBench(t *testing.T) {
	first := ScaleSection(scaleRun(300), "BenchmarkScaleExpire-2 3 1000 ns/op", []string{"make bench-scale"})
	for _, want := range []string{"## Scale", "scale quiet", "300 MiB", "BenchmarkScaleExpire", "make bench-scale", "(met)"} {
		if !strings.Contains(first, want) {
			t.Errorf("block lacks %q", want)
		}
	}
	page := ReplaceScaleSection("# Performance\n\nfigures\n\n"+notesHeading+"\n\nnotes\n", first)
	if !strings.Contains(page, "figures\n\n"+scaleBegin) || !strings.Contains(page, scaleEnd+"\n\n"+notesHeading) {
		t.Fatalf("block not put before the notes:\n%s", page)
	}
	second := ScaleSection(scaleRun(500), "", nil)
	page = ReplaceScaleSection(page, second)
	if strings.Count(page, scaleBegin) != 1 || !strings.Contains(page, "500 MiB") || strings.Contains(page, "300 MiB") {
		t.Fatalf("block not replaced:\n%s", page)
	}
	if ExtractScaleSection(page) != second || ExtractScaleSection("no block") != "" {
		t.Fatal("extract")
	}
	// make bench writes the page anew and keeps the block.
	r := fullRun(1)
	r.Targets = Evaluate(r, goBenchFast, 10000)
	var out bytes.Buffer
	if err := WriteMarkdown(&out, Page{Report: r, ScaleSection: ExtractScaleSection(page)}); err != nil {
		t.Fatal(err)
	}
	if ExtractScaleSection(out.String()) != second {
		t.Fatal("make bench dropped the scale block")
	}
}
