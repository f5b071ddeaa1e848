package scenario

import (
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/senders"
)

// runWithStorm measures streams against s while every seeded broker
// re-registers (a new data version of the same table, as Java's JMH) from
// the storm senders Env.StartSenders gives, waiting a random time below
// pauseBelow before each registration (0: flat out). The storm goes to
// stormAt: s itself, or a twin of s (same kind, same data) to measure what
// the storm costs the route queries through the machine alone (the cores,
// the kernel's loopback copies) when the server answering them does none of
// the registration work. The senders register over connections of their
// own, which the server then takes as the brokers' connections (what a
// restarted broker does); once their window is over, every broker registers
// again on the connection stormAt seeded it on, and only then are the
// senders' connections closed, so that closing them unregisters nothing.
// Their phase joins the streams' phases, with the CPU use of the server the
// streams went to.
func (e *Env) runWithStorm(s, stormAt *seeded, scenario string, pauseBelow time.Duration, streams ...load.Stream) ([]report.Phase, error) {
	job := senders.Job{Addr: stormAt.server.Addr, Spec: stormAt.spec, Mode: load.RegisterNewVersion, PauseBelow: pauseBelow, Window: e.Window}
	storm, err := e.StartSenders(job)
	if err != nil {
		return nil, fmt.Errorf("%s against %s: %w", scenario, s.server.Kind, err)
	}
	e.Log.WithFields(logrus.Fields{"scenario": scenario, "target": s.server.Kind, "stormAt": stormAt.server.Addr, "nice": storm.Nice()}).Info("storm senders ready")
	phases, err := e.runBegun(s, scenario, storm, streams)
	if reclaimErr := load.Seed(e.Ctx, stormAt.regs, stormAt.brokers, load.FirstVersion); reclaimErr != nil {
		err = errors.Join(err, fmt.Errorf("%s against %s: take the brokers back: %w", scenario, s.server.Kind, reclaimErr))
	}
	if closeErr := storm.Close(); closeErr != nil {
		err = errors.Join(err, fmt.Errorf("%s against %s: %w", scenario, s.server.Kind, closeErr))
	}
	if err != nil {
		return nil, err
	}
	return phases, nil
}

// runBegun starts the storm's window right before its own and collects the
// storm's phase after it.
func (e *Env) runBegun(s *seeded, scenario string, storm *senders.Client, streams []load.Stream) ([]report.Phase, error) {
	if err := storm.Begin(); err != nil {
		return nil, fmt.Errorf("%s against %s: %w", scenario, s.server.Kind, err)
	}
	phases, runErr := e.run(s, scenario, streams...)
	registrations, err := storm.Result()
	if err != nil {
		return nil, errors.Join(runErr, fmt.Errorf("%s against %s: %w", scenario, s.server.Kind, err))
	}
	if runErr != nil {
		return nil, runErr
	}
	// The server's CPU in the window went to the storm too: per request of
	// the parent's streams it would mean nothing.
	for i := range phases {
		phases[i].ServerCPUMicrosPerOp = 0
		registrations.ServerCPUCores = phases[i].ServerCPUCores
	}
	e.label(&registrations, s, scenario)
	return append(phases, registrations), nil
}
