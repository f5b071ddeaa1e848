package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func sampleReport() *Report {
	return &Report{
		Mode: "route",
		Phases: []Phase{
			{Scenario: "route", Target: TargetNamesrv, Op: "route", Conns: 64, InFlight: 8, Seconds: 5, Requests: 500000,
				PerSecond: 100000, Latency: Percentiles{P50: 310.4, P90: 52.25, P99: 7.125, P999: 1200, Max: 4000},
				Errors: map[string]uint64{"wrong brokers": 1, "code 17": 2}, ServerCPUMicrosPerOp: 9.5},
		},
		Facts:   []Fact{{Name: "resident memory", Value: 12.5, Unit: "MiB"}},
		Targets: []Target{{Goal: "route at 64x8 >= 70% of baseline", Measured: "80%", Met: true}, {Goal: "memory", Measured: "300 MiB", Met: false}},
		Notes:   []string{"shared cores"},
	}
}

func TestWriteTableShowsEveryFigure(t *testing.T) {
	var out bytes.Buffer
	if err := WriteTable(&out, sampleReport()); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"64 x 8", "100000", "310", "52.2", "7.12", "1200", "code 17=2,wrong brokers=1", "9.50",
		"resident memory: 12.50 MiB", "[met] route at 64x8", "[NOT met] memory: 300 MiB", "note: shared cores"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	lines := strings.Split(text, "\n")
	if len(lines[0]) != len(lines[1]) {
		t.Errorf("header and row are not aligned:\n%s\n%s", lines[0], lines[1])
	}
}

func TestWriteJSONIsOneObjectThatReadsBack(t *testing.T) {
	var out bytes.Buffer
	want := sampleReport()
	if err := WriteJSON(&out, want); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	var got Report
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Fatal("more than one JSON value")
	}
	if got.Phases[0].Latency != want.Phases[0].Latency || got.Phases[0].Errors["code 17"] != 2 || got.Targets[1].Met {
		t.Fatalf("read back %+v", got)
	}
	if !strings.Contains(text, `"p99.9"`) {
		t.Fatal("percentile keys must read like the table's (p99.9)")
	}
}

func TestFormatMicros(t *testing.T) {
	for value, want := range map[float64]string{0.5: "0.50", 9.999: "10.00", 12.34: "12.3", 99.94: "99.9", 150.6: "151", 12345: "12345"} {
		if got := FormatMicros(value); got != want {
			t.Errorf("FormatMicros(%v) = %q, want %q", value, got, want)
		}
	}
	if got := FormatErrors(nil); got != "0" {
		t.Errorf("no errors printed as %q", got)
	}
}
