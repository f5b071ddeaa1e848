// Package senders runs the registration storm of the JMH scenarios in a
// separate, lower-priority process. On a 2-core machine the load generator
// that pushes ~1.2 GB/s of 2 MB registration frames and also times route
// queries makes its own route clients wait for a core behind its own
// senders; moving the senders into a niced child ("nsbench storm-senders")
// lets the parent's route clients and the server under test run first, as
// they would with brokers on other machines. The parent and the child talk
// over the child's stdin (commands) and stdout (one JSON message a line).
package senders

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

// Job is what the storm senders do: re-register every broker of Spec at
// Addr with the bodies of Mode, one request at a time per broker on a
// connection of their own, waiting a uniformly random time below PauseBelow
// before each (0: flat out), for Window's warm-up and measured time.
type Job struct {
	Addr       string
	Spec       load.LayoutSpec
	Mode       load.RegisterMode
	PauseBelow time.Duration
	// Window's ServerPID is not used: the parent reads the server's CPU.
	Window load.Window
}

// registerModes are the modes a job may name, by their report name.
var registerModes = []load.RegisterMode{load.RegisterUnchanged, load.RegisterNewVersion, load.RegisterChanged}

// Args are the child's command-line flags for the job; ParseJob reads them.
func (j Job) Args() []string {
	return []string{
		"-addr", j.Addr,
		"-clusters", strconv.Itoa(j.Spec.Clusters), "-brokers", strconv.Itoa(j.Spec.BrokersPerCluster),
		"-topics", strconv.Itoa(j.Spec.TopicsPerCluster), "-queues", strconv.Itoa(int(j.Spec.QueueNums)),
		"-mode", j.Mode.Op(), "-pause-below", j.PauseBelow.String(),
		"-warmup", j.Window.Warmup.String(), "-duration", j.Window.Measure.String(),
	}
}

// ParseJob reads the flags Args wrote.
func ParseJob(args []string, output io.Writer) (Job, error) {
	var j Job
	var mode string
	var queues int
	fs := flag.NewFlagSet("nsbench storm-senders", flag.ContinueOnError)
	fs.SetOutput(output)
	fs.StringVar(&j.Addr, "addr", "", "server to re-register the brokers at")
	fs.IntVar(&j.Spec.Clusters, "clusters", 0, "clusters of the seeded layout")
	fs.IntVar(&j.Spec.BrokersPerCluster, "brokers", 0, "brokers per cluster")
	fs.IntVar(&j.Spec.TopicsPerCluster, "topics", 0, "topics per cluster")
	fs.IntVar(&queues, "queues", 0, "queues per topic")
	fs.StringVar(&mode, "mode", "", "what each registration sends: register-unchanged, register-new-version or register-changed")
	fs.DurationVar(&j.PauseBelow, "pause-below", 0, "wait a random time below this before each registration (0: flat out)")
	fs.DurationVar(&j.Window.Warmup, "warmup", 0, "warm-up before the measured window")
	fs.DurationVar(&j.Window.Measure, "duration", 0, "measured window")
	if err := fs.Parse(args); err != nil {
		return Job{}, fmt.Errorf("storm-senders flags: %w: %w", ErrBadJob, err)
	}
	j.Spec.QueueNums = int32(queues)
	found := false
	for _, m := range registerModes {
		if m.Op() == mode {
			j.Mode, found = m, true
		}
	}
	switch {
	case !found:
		return Job{}, fmt.Errorf("storm-senders -mode %q: %w", mode, ErrBadJob)
	case j.Addr == "" || j.Spec.Clusters <= 0 || j.Spec.BrokersPerCluster <= 0 || j.Spec.TopicsPerCluster <= 0 || queues <= 0:
		return Job{}, fmt.Errorf("storm-senders -addr %q layout %s: %w", j.Addr, j.Spec, ErrBadJob)
	case j.Window.Measure <= 0 || j.Window.Warmup < 0 || j.PauseBelow < 0:
		return Job{}, fmt.Errorf("storm-senders -warmup %v -duration %v -pause-below %v: %w", j.Window.Warmup, j.Window.Measure, j.PauseBelow, ErrBadJob)
	}
	return j, nil
}

// pause is the wait before each registration, nil for flat out.
func (j Job) pause() func(*rand.Rand) time.Duration {
	if j.PauseBelow <= 0 {
		return nil
	}
	return load.UniformPause(j.PauseBelow)
}
