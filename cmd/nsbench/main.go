// Command nsbench measures a NameServer over the real wire: it seeds brokers
// and topics, drives route queries, registrations and heartbeats from many
// connections with a set number of requests in flight, checks every answer,
// and compares the figures with a zero-work baseline server measured in the
// same run. "nsbench suite" runs everything "make bench" needs and writes
// docs/performance.md. Run "nsbench help" for the modes and flags.
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

	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run executes one mode and returns the process exit code: 0 on success,
// 1 when the run failed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		return 0
	}
	if buildinfo.Requested(args[:1]) {
		fmt.Fprintln(stdout, buildinfo.Read().String("nsbench"))
		return 0
	}
	switch args[0] {
	case "namesrv":
		return runProfiledNamesrv(args[1:], stderr)
	case stormSendersMode:
		return runStormSenders(args[1:], os.Stdin, stdout, stderr)
	}
	m, found := modes[args[0]]
	if !found {
		fmt.Fprintf(stderr, "nsbench: unknown mode %q\n\n", args[0])
		printUsage(stderr)
		return 2
	}
	opts := defaultOptions(args[0])
	fs := opts.flagSet(args[0], stderr)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := opts.validate(); err != nil {
		fmt.Fprintln(stderr, "nsbench:", err)
		return 2
	}
	opts.security.apply()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	log := newLogger(stderr)
	stopProfile, err := startCPUProfile(opts.selfProfile)
	if err != nil {
		log.WithError(err).Error("load generator cpu profile")
		return 1
	}
	defer stopProfile()
	if err := m.run(ctx, opts, stdout, log); err != nil {
		log.WithError(err).Error("nsbench " + args[0] + " failed")
		return 1
	}
	return 0
}

// newLogger writes the tool's progress to stderr, keeping stdout for the
// table or the JSON object.
func newLogger(stderr io.Writer) *logrus.Entry {
	logger := logrus.New()
	logger.SetOutput(stderr)
	logger.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
	logger.SetLevel(logrus.InfoLevel)
	return logrus.NewEntry(logger).WithField("tool", "nsbench")
}
