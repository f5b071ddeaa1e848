package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/latency"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Source produces a worker's next request and the check of its answer.
type Source func() (*remoting.Command, Check)

// Stream is one kind of traffic: Conns connections, each with InFlight
// workers that send a request, wait for its answer, and send the next.
type Stream struct {
	// Op names the stream in the report (route, register, heartbeat).
	Op string
	// Clients are the connections; workers of client i share it.
	Clients []Invoker
	// InFlight is the number of workers, hence requests in flight, per client.
	InFlight int
	// NewSource is called once per worker, with the worker's global index
	// and its own random source.
	NewSource func(worker int, rng *rand.Rand) Source
	// Pause, when set, is how long a worker waits before each request
	// (brokers re-registering after a delay); nil runs flat out.
	Pause func(rng *rand.Rand) time.Duration
	// Pipes, when set, replace Clients and NewSource: each pipe keeps
	// InFlight requests of Requests in flight from one goroutine (pipe.go).
	Pipes    []*Pipe
	Requests *RequestSet
}

// conns is the number of connections the stream uses.
func (s *Stream) conns() int {
	if s.Pipes != nil {
		return len(s.Pipes)
	}
	return len(s.Clients)
}

// Window is the timing of one measurement.
type Window struct {
	Warmup, Measure time.Duration
	// ServerPID, when > 0, is the server process whose CPU time is read at
	// the window's edges.
	ServerPID int
}

// Measurement is what one window measured: a phase per stream (Scenario
// and Target left for the caller) and the server's CPU time in the window.
type Measurement struct {
	Phases    []report.Phase
	ServerCPU time.Duration
	// GeneratorCPU is this process's CPU time in the window: what the load
	// generator itself cost.
	GeneratorCPU time.Duration
	Seconds      float64
}

// Window states; workers record only answers that arrive while measuring.
const (
	stateWarmup int32 = iota
	stateMeasuring
	stateStopped
)

// workerStats is one worker's private record, merged after the run.
type workerStats struct {
	hist     latency.Histogram
	errors   map[string]uint64
	progress *streamProgress
}

// streamProgress is shared by the workers of one stream: whether it has had
// an answer in the window yet (read before written, so it costs a shared
// cache line once, not per answer), and how many of its pipes have failed.
type streamProgress struct {
	answered    atomic.Bool
	failedPipes atomic.Int32
}

// record counts one answer that arrived in the window.
func (ws *workerStats) record(d time.Duration) {
	ws.hist.Record(d)
	if !ws.progress.answered.Load() {
		ws.progress.answered.Store(true)
	}
}

// pipeFailed counts one of the stream's pipes out.
func (ws *workerStats) pipeFailed() { ws.progress.failedPipes.Add(1) }

// settled says the stream has had an answer in the window or never can:
// every one of its pipes has failed (clients redial, so they always can).
func (p *streamProgress) settled(stream Stream) bool {
	return p.answered.Load() || len(stream.Clients) == 0 && int(p.failedPipes.Load()) >= len(stream.Pipes)
}

// windowStretch bounds how long a window is held open past its end for a
// stream that has had no answer yet: on a starved machine (a niced test run
// beside builds) a short window can pass before any answer arrives, and a
// rate from no answers says nothing about the server.
const windowStretch = 10 * time.Second

// Run drives the streams together for warm-up plus measure, then stops
// every worker and waits for it. Answers are counted when they arrive inside
// the measured window, whenever the request was sent, so the window's edges
// cost as much as they give.
func Run(ctx context.Context, window Window, streams ...Stream) (Measurement, error) {
	var state atomic.Int32
	stop := make(chan struct{})
	var wg sync.WaitGroup
	stats := make([][]*workerStats, len(streams))
	progress := make([]streamProgress, len(streams))
	seed := uint64(time.Now().UnixNano())
	// raw starts the runs of raw pipes, which share event loops.
	var raw []func() *pipeRun
	for s, stream := range streams {
		if stream.conns() == 0 || stream.InFlight <= 0 {
			return Measurement{}, fmt.Errorf("stream %s: %d connections x %d in flight: %w", stream.Op, stream.conns(), stream.InFlight, ErrEmptyStream)
		}
		for c, pipe := range stream.Pipes {
			rng := rand.New(rand.NewPCG(seed, uint64(s)<<32|uint64(c)))
			ws := &workerStats{errors: map[string]uint64{}, progress: &progress[s]}
			stats[s] = append(stats[s], ws)
			if pipe.conn == nil && pipe.broken == nil {
				raw = append(raw, func() *pipeRun { return newPipeRun(pipe, stream.InFlight, stream.Requests, rng, &state, ws) })
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				runPipe(pipe, stream.InFlight, stream.Requests, rng, &state, ws)
			}()
		}
		for c, client := range stream.Clients {
			for k := range stream.InFlight {
				worker := c*stream.InFlight + k
				rng := rand.New(rand.NewPCG(seed, uint64(s)<<32|uint64(worker)))
				ws := &workerStats{errors: map[string]uint64{}, progress: &progress[s]}
				stats[s] = append(stats[s], ws)
				wg.Add(1)
				go func() {
					defer wg.Done()
					runWorker(ctx, client, stream.NewSource(worker, rng), stream.Pause, rng, &state, stop, ws)
				}()
			}
		}
	}
	if len(raw) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs := make([]*pipeRun, 0, len(raw))
			for _, start := range raw {
				if r := start(); r != nil {
					runs = append(runs, r)
				}
			}
			if len(runs) > 0 {
				runLoops(runs)
			}
		}()
	}
	everyStreamSettled := func() bool {
		for s := range progress {
			if !progress[s].settled(streams[s]) {
				return false
			}
		}
		return true
	}
	m, err := measureWindow(ctx, window, &state, everyStreamSettled)
	close(stop)
	wg.Wait()
	if err != nil {
		return Measurement{}, err
	}
	for s, stream := range streams {
		m.Phases = append(m.Phases, mergePhase(stream, stats[s], m.Seconds))
	}
	if len(streams) == 1 && m.Phases[0].Requests > 0 {
		perOp := func(cpu time.Duration) float64 {
			return float64(cpu) / float64(time.Microsecond) / float64(m.Phases[0].Requests)
		}
		if m.ServerCPU > 0 {
			m.Phases[0].ServerCPUMicrosPerOp = perOp(m.ServerCPU)
		}
		m.Phases[0].GeneratorCPUMicrosPerOp = perOp(m.GeneratorCPU)
	}
	for i := range m.Phases {
		m.Phases[i].ServerCPUCores = m.ServerCPU.Seconds() / m.Seconds
	}
	return m, nil
}

// measureWindow sleeps through the warm-up, opens the window, sleeps
// through it and closes it, reading the server's CPU time at both edges.
// The window stays open past its end, by at most windowStretch, until
// settled says every stream has had an answer in it (or can have none).
func measureWindow(ctx context.Context, window Window, state *atomic.Int32, settled func() bool) (Measurement, error) {
	if err := sleepCtx(ctx, window.Warmup); err != nil {
		state.Store(stateStopped)
		return Measurement{}, err
	}
	cpuBefore := ProcessCPU(window.ServerPID)
	ownBefore := ProcessCPU(os.Getpid())
	start := time.Now()
	state.Store(stateMeasuring)
	err := sleepCtx(ctx, window.Measure)
	for stretch := time.Now().Add(windowStretch); err == nil && !settled() && time.Now().Before(stretch); {
		err = sleepCtx(ctx, 5*time.Millisecond)
	}
	state.Store(stateStopped)
	elapsed := time.Since(start)
	if err != nil {
		return Measurement{}, err
	}
	m := Measurement{Seconds: elapsed.Seconds(), GeneratorCPU: ProcessCPU(os.Getpid()) - ownBefore}
	if window.ServerPID > 0 {
		m.ServerCPU = ProcessCPU(window.ServerPID) - cpuBefore
	}
	return m, nil
}

// ProcessCPU reads a process's CPU time, 0 when there is no process or it
// cannot be read (the figure is then left out of the report).
func ProcessCPU(pid int) time.Duration {
	if pid <= 0 {
		return 0
	}
	cpu, err := proc.CPUTime(pid)
	if err != nil {
		return 0
	}
	return cpu
}

func runWorker(ctx context.Context, client Invoker, next Source, pause func(*rand.Rand) time.Duration,
	rng *rand.Rand, state *atomic.Int32, stop <-chan struct{}, ws *workerStats) {
	var timer *time.Timer
	for state.Load() != stateStopped {
		if pause != nil {
			if timer == nil {
				timer = time.NewTimer(pause(rng))
			} else {
				timer.Reset(pause(rng))
			}
			select {
			case <-timer.C:
			case <-stop:
				return
			}
		}
		req, check := next()
		start := time.Now()
		resp, err := client.Invoke(ctx, req)
		elapsed := time.Since(start)
		if state.Load() != stateMeasuring {
			continue
		}
		ws.record(elapsed)
		switch {
		case err != nil:
			ws.errors[errorKind(err)]++
		default:
			if kind := check(resp); kind != "" {
				ws.errors[kind]++
			}
		}
	}
}

// errorKind names a transport failure for the report.
func errorKind(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, remoting.ErrTooManyPending):
		return "too many pending"
	case errors.Is(err, remoting.ErrConnectionClosed), errors.Is(err, remoting.ErrClientClosed):
		return "connection closed"
	default:
		return "transport"
	}
}

// mergePhase folds the workers' records into the stream's phase.
func mergePhase(stream Stream, workers []*workerStats, seconds float64) report.Phase {
	var hist latency.Histogram
	errs := map[string]uint64{}
	for _, ws := range workers {
		hist.Merge(&ws.hist)
		for kind, n := range ws.errors {
			errs[kind] += n
		}
	}
	phase := report.Phase{
		Op:        stream.Op,
		Conns:     stream.conns(),
		InFlight:  stream.InFlight,
		Seconds:   seconds,
		Requests:  hist.Count(),
		PerSecond: float64(hist.Count()) / seconds,
		Latency:   report.PercentilesOf(&hist),
	}
	if len(errs) > 0 {
		phase.Errors = errs
	}
	return phase
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
