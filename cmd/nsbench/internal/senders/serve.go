package senders

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

// Serve is the child's side: it opens a connection per broker of the job's
// layout (the brokers are already seeded by the parent; nothing is seeded
// here), says it is ready, waits for the start command on control, runs the
// job's registrations for the job's window, reports the measured phase on
// replies, and then keeps its connections open until control is closed, so
// that the parent can take its brokers back on its own connections first
// (the server unregisters a broker when the connection it last registered
// on closes). ctx's end, or control closing early, stops it at any point.
func Serve(ctx context.Context, job Job, control io.Reader, replies io.Writer, log *logrus.Entry) error {
	out := json.NewEncoder(replies)
	fail := func(err error) error {
		if sendErr := out.Encode(message{Error: err.Error()}); sendErr != nil {
			log.WithError(sendErr).Warn("cannot report the failure to the parent")
		}
		return err
	}
	layout := load.NewLayout(job.Spec)
	regs := load.NewRegistrations(layout)
	conns, err := load.DialBrokers(ctx, job.Addr, len(layout.Brokers()))
	if err != nil {
		return fail(fmt.Errorf("storm senders dial %s: %w", job.Addr, err))
	}
	defer load.CloseAll(conns)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ctl := watchControl(control, cancel)
	if err := out.Encode(message{Ready: true, Nice: ownNiceness()}); err != nil {
		return fmt.Errorf("storm senders ready: %w", err)
	}
	select {
	case <-ctl.started:
	case <-ctx.Done():
		return fmt.Errorf("storm senders stopped before the start: %w", context.Cause(ctx))
	}
	m, err := load.Run(ctx, job.Window, load.RegisterStream(regs, conns, job.Mode, job.pause()))
	if err != nil {
		return fail(fmt.Errorf("storm senders run: %w", err))
	}
	if err := out.Encode(message{Phase: &m.Phases[0]}); err != nil {
		return fmt.Errorf("storm senders result: %w", err)
	}
	log.WithFields(logrus.Fields{"op": m.Phases[0].Op, "perSecond": int(m.Phases[0].PerSecond),
		"p99us": m.Phases[0].Latency.P99}).Info("storm senders done")
	<-ctx.Done() // control closed (the parent has its brokers back) or stopped
	return nil
}

// ownNiceness is this thread's nice value (Linux keeps one per thread; a
// child started through nice(1) has it on every thread), 0 when unknown.
func ownNiceness() int {
	// The raw system call answers 20 - nice, so that it is never negative.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		return 0
	}
	return 20 - raw
}

// control is what the parent said on the child's stdin.
type control struct {
	// started is closed when the start command arrives.
	started chan struct{}
}

// watchControl reads control lines until the parent closes it (or the
// reader fails), then calls closed. The goroutine ends with the stream:
// the parent closes it in Client.Close, and a child process's stdin closes
// when the parent exits.
func watchControl(r io.Reader, closed context.CancelFunc) *control {
	c := &control{started: make(chan struct{})}
	go func() {
		defer closed()
		scanner := bufio.NewScanner(r)
		for scanner.Scan() {
			if scanner.Text() == startCommand {
				select {
				case <-c.started:
				default:
					close(c.started)
				}
			}
		}
	}()
	return c
}
