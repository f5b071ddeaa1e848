// Package report holds the results of a benchmark run and writes them out:
// an aligned table for a terminal, one JSON object for scripts, and an SVG
// chart of latency against load for a reader who wants the picture.
package report

import (
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/latency"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
)

// Names of the two kinds of server a phase runs against.
const (
	TargetNamesrv  = "namesrv"
	TargetBaseline = "baseline"
)

// Percentiles are latencies in microseconds (float, so sub-microsecond
// figures survive JSON).
type Percentiles struct {
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	P999 float64 `json:"p99.9"`
	Max  float64 `json:"max"`
}

// PercentilesOf reads the report's percentiles out of a histogram.
func PercentilesOf(h *latency.Histogram) Percentiles {
	micros := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	return Percentiles{
		P50:  micros(h.Quantile(0.50)),
		P90:  micros(h.Quantile(0.90)),
		P99:  micros(h.Quantile(0.99)),
		P999: micros(h.Quantile(0.999)),
		Max:  micros(h.Max()),
	}
}

// Phase is one measured stream of requests against one server: which
// requests, how much load, and what came back.
type Phase struct {
	// Scenario names the situation ("route", "jmh-route storm", ...).
	Scenario string `json:"scenario"`
	// Target is TargetNamesrv or TargetBaseline.
	Target string `json:"target"`
	// Op is the request stream measured: route, register, heartbeat, ...
	Op       string `json:"op"`
	Conns    int    `json:"conns"`
	InFlight int    `json:"inFlight"`
	// Seconds is the length of the measured window (warm-up excluded).
	Seconds float64 `json:"seconds"`
	// Requests counts answers received in the window, errors included.
	Requests  uint64  `json:"requests"`
	PerSecond float64 `json:"perSecond"`
	// Errors counts failed or wrong answers by kind ("timeout", "code 17",
	// "wrong brokers", ...).
	Errors  map[string]uint64 `json:"errors,omitempty"`
	Latency Percentiles       `json:"latencyMicros"`
	// ServerCPUMicrosPerOp is the server's user+system CPU during the window
	// divided by Requests; 0 when unknown. Streams that share a window share
	// the CPU, so it is set only when one stream ran alone.
	ServerCPUMicrosPerOp float64 `json:"serverCpuMicrosPerOp,omitempty"`
	// GeneratorCPUMicrosPerOp is the load generator's own CPU (this
	// process) during the window divided by Requests, set like
	// ServerCPUMicrosPerOp.
	GeneratorCPUMicrosPerOp float64 `json:"generatorCpuMicrosPerOp,omitempty"`
	// Headroom is the generator's headroom at this phase's load: the rate
	// the same generator reached against the zero-work baseline at the same
	// load, divided by this phase's rate (1.0 for the baseline itself). Near
	// 1, the generator (or the machine), not the server, may set the rate.
	// 0 when the run has no such baseline phase.
	Headroom float64 `json:"generatorHeadroom,omitempty"`
	// ServerCPUCores is the server's CPU use in cores (1.0 = one core busy).
	ServerCPUCores float64 `json:"serverCpuCores,omitempty"`
	// AnswerBytes is the body size of a typical answer, to show the
	// baseline answered with bodies of the real size.
	AnswerBytes int `json:"answerBytes,omitempty"`
}

// ErrorCount is the total of Errors.
func (p Phase) ErrorCount() uint64 {
	var total uint64
	for _, n := range p.Errors {
		total += n
	}
	return total
}

// Fact is one named figure that is not a request stream (resident memory,
// bytes per connection, ...).
type Fact struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// Target is one goal of the issue checked against this run's figures.
type Target struct {
	Goal string `json:"goal"`
	// Measured says what was measured, in words and numbers.
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// Report is everything one run of the tool measured.
type Report struct {
	Mode    string       `json:"mode"`
	Command string       `json:"command"`
	Started time.Time    `json:"started"`
	Machine proc.Machine `json:"machine"`
	Phases  []Phase      `json:"phases"`
	Facts   []Fact       `json:"facts,omitempty"`
	Targets []Target     `json:"targets,omitempty"`
	// Notes are remarks a reader needs to interpret the figures.
	Notes []string `json:"notes,omitempty"`
}

// Find returns the first phase with the given scenario, target and op.
func (r *Report) Find(scenario, target, op string) (Phase, bool) {
	for _, p := range r.Phases {
		if p.Scenario == scenario && p.Target == target && p.Op == op {
			return p, true
		}
	}
	return Phase{}, false
}

// Fact returns the value of the named fact.
func (r *Report) Fact(name string) (float64, bool) {
	for _, f := range r.Facts {
		if f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}
