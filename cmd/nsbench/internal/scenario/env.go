// Package scenario runs the benchmark's situations (route queries, broker
// registrations, heartbeats, the Java JMH shapes, idle connections) against
// one or more servers, each seeded with the same data, and returns their
// phases and facts for the report.
package scenario

import (
	"context"
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/senders"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/target"
)

// Env is what every scenario needs: where to send load and for how long.
type Env struct {
	Ctx context.Context
	Log *logrus.Entry
	// Window is the warm-up and measured time of each phase; ServerPID is
	// filled per target.
	Window load.Window
	// Targets are the kinds of server to measure (report.TargetNamesrv,
	// report.TargetBaseline), in the order phases run.
	Targets []string
	// Start gives a fresh server of a kind, ready for data of spec.
	Start func(kind string, spec load.LayoutSpec) (*target.Server, error)
	// StartWith is Start with server flags of the scenario's own added
	// (the ACL modes of ACLRoute); nil when the servers are not started
	// here.
	StartWith func(kind string, spec load.LayoutSpec, extra ...string) (*target.Server, error)
	// StartSenders starts the registration senders of a JMH storm, ready
	// to begin: a niced child process (senders.StartProcess) or, to compare
	// with the single-process method, goroutines of this one (senders.Local).
	StartSenders func(job senders.Job) (*senders.Client, error)
}

// Load is a number of connections with a number of requests in flight on each.
type Load struct{ Conns, InFlight int }

// String is the load as the reports write it, "64x8".
func (l Load) String() string { return fmt.Sprintf("%dx%d", l.Conns, l.InFlight) }

// Result is what a scenario measured.
type Result struct {
	Phases []report.Phase
	Facts  []report.Fact
}

func (r *Result) fact(name string, value float64, unit string) {
	r.Facts = append(r.Facts, report.Fact{Name: name, Value: value, Unit: unit})
}

// seeded is one server with the layout registered, its brokers' connections
// (which must stay open: closing one unregisters its broker), a client for
// single requests and a pool of pipes for the query streams.
type seeded struct {
	server  *target.Server
	spec    load.LayoutSpec
	layout  *load.Layout
	regs    *load.Registrations
	brokers []load.Invoker
	clients []load.Invoker
	pipes   []*load.Pipe
	// emptyRSS is the server's resident memory before seeding.
	emptyRSS int64
	// stopKeepAlive stops the brokers' heartbeats (load.KeepAlive).
	stopKeepAlive func() int
	log           *logrus.Entry
}

// seed starts a server of kind, registers every broker of spec and opens
// conns query pipes (and a client when conns > 0).
func (e *Env) seed(kind string, spec load.LayoutSpec, regs *load.Registrations, conns int) (*seeded, error) {
	server, err := e.Start(kind, spec)
	if err != nil {
		return nil, err
	}
	return e.seedOn(server, spec, regs, conns)
}

// seedOn registers every broker of spec on a started server and opens conns
// query connections.
func (e *Env) seedOn(server *target.Server, spec load.LayoutSpec, regs *load.Registrations, conns int) (*seeded, error) {
	kind := server.Kind
	var err error
	s := &seeded{server: server, spec: spec, layout: load.NewLayout(spec), regs: regs, emptyRSS: server.ResidentBytes()}
	fail := func(err error) (*seeded, error) {
		s.close()
		return nil, fmt.Errorf("seed %s with %s: %w", kind, spec, err)
	}
	if s.brokers, err = load.DialBrokers(e.Ctx, server.Addr, len(s.layout.Brokers())); err != nil {
		return fail(err)
	}
	if err := load.Seed(e.Ctx, regs, s.brokers, load.FirstVersion); err != nil {
		return fail(err)
	}
	s.stopKeepAlive, s.log = load.KeepAlive(e.Ctx, s.layout, s.brokers, load.KeepAliveInterval), e.Log
	if s.clients, err = load.Dial(e.Ctx, server.Addr, min(conns, 1), e.Log); err != nil {
		return fail(err)
	}
	if s.pipes, err = load.DialPipes(e.Ctx, server.Addr, conns); err != nil {
		return fail(err)
	}
	e.Log.WithFields(logrus.Fields{"target": kind, "addr": server.Addr, "layout": spec.String()}).Info("seeded")
	return s, nil
}

func (s *seeded) close() {
	if s.stopKeepAlive != nil {
		if failed := s.stopKeepAlive(); failed > 0 {
			s.log.WithFields(logrus.Fields{"target": s.server.Kind, "failed": failed}).Warn("broker heartbeats failed or were refused")
		}
	}
	load.ClosePipes(s.pipes)
	load.CloseAll(s.clients)
	load.CloseAll(s.brokers)
	s.server.Stop()
}

// seedAll seeds one server per target kind; on failure the ones already
// seeded are stopped.
func (e *Env) seedAll(spec load.LayoutSpec, conns int) ([]*seeded, error) {
	regs := load.NewRegistrations(load.NewLayout(spec))
	var all []*seeded
	for _, kind := range e.Targets {
		s, err := e.seed(kind, spec, regs, conns)
		if err != nil {
			closeAll(all)
			return nil, err
		}
		all = append(all, s)
	}
	return all, nil
}

func closeAll(all []*seeded) {
	for _, s := range all {
		s.close()
	}
}

// run measures streams against one seeded server and labels the phases.
func (e *Env) run(s *seeded, scenario string, streams ...load.Stream) ([]report.Phase, error) {
	window := e.Window
	window.ServerPID = s.server.PID
	m, err := load.Run(e.Ctx, window, streams...)
	if err != nil {
		return nil, fmt.Errorf("%s against %s: %w", scenario, s.server.Kind, err)
	}
	for i := range m.Phases {
		e.label(&m.Phases[i], s, scenario)
	}
	return m.Phases, nil
}

// label names a measured phase after its scenario and server and logs it.
func (e *Env) label(p *report.Phase, s *seeded, scenario string) {
	p.Scenario, p.Target = scenario, s.server.Kind
	e.Log.WithFields(logrus.Fields{"scenario": scenario, "target": s.server.Kind, "op": p.Op,
		"perSecond": int(p.PerSecond), "p99us": p.Latency.P99, "errors": p.ErrorCount()}).Info("phase done")
}
