package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/senders"
)

// Values of -senders.
const (
	sendersChild = "child"
	sendersLocal = "local"
)

// stormSendersMode is the hidden mode the JMH scenarios start as a child
// process: "nsbench storm-senders JOB FLAGS" re-registers brokers the parent
// has seeded, talking to the parent over stdin and stdout.
const stormSendersMode = "storm-senders"

// runStormSenders is the child's main: the job from args, the parent's
// commands on stdin, its messages on stdout, its log on stderr.
func runStormSenders(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	job, err := senders.ParseJob(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "nsbench:", err)
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := newLogger(stderr).WithField("component", stormSendersMode)
	log.Logger.SetLevel(logrus.WarnLevel)
	if err := senders.Serve(ctx, job, stdin, stdout, log); err != nil {
		log.WithError(err).Error("storm senders failed")
		return 1
	}
	return 0
}

// startSenders is Env.StartSenders for the -senders flag: the storm senders
// in a child process at nice +10, or on goroutines of this process.
func startSenders(ctx context.Context, o *options, log *logrus.Entry) func(senders.Job) (*senders.Client, error) {
	log = log.WithField("component", "storm-senders")
	return func(job senders.Job) (*senders.Client, error) {
		if o.senders == sendersLocal {
			return senders.Local(ctx, job, log)
		}
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find own executable: %w", err)
		}
		return senders.StartProcess(job, []string{self, stormSendersMode}, senders.Niceness, log.Logger.Out, log)
	}
}
