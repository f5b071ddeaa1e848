package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// profiledStopTimeout bounds the graceful stop of a profiled NameServer.
const profiledStopTimeout = 15 * time.Second

// runProfiledNamesrv is "nsbench namesrv -cpuprofile FILE [namesrv flags]":
// the NameServer of the namesrv package, as cmd/namesrv runs it, with a CPU
// profile of its whole life written to FILE when SIGTERM stops it. The
// suite's -profile uses it in place of the binary.
func runProfiledNamesrv(args []string, stderr io.Writer) int {
	// -cpuprofile FILE comes first; every other flag is the NameServer's.
	profilePath := ""
	if len(args) >= 2 && args[0] == "-cpuprofile" {
		profilePath, args = args[1], args[2:]
	}
	cfg, printOnly, err := config.FromArgs(args, os.Stdout)
	if err != nil || printOnly {
		if err != nil {
			fmt.Fprintln(stderr, "nsbench namesrv:", err)
			return 2
		}
		return 0
	}
	logger := logrus.New()
	logger.SetOutput(stderr)
	log := logrus.NewEntry(logger).WithField("service", "namesrv")
	stopProfile, err := startCPUProfile(profilePath)
	if err != nil {
		log.WithError(err).Error("cpu profile")
		return 1
	}
	defer stopProfile()
	ns, err := namesrv.New(config.NewSettings(cfg, log.WithField("component", "config")), log)
	if err != nil {
		log.WithError(err).Error("start name server")
		return 1
	}
	waitForSignal()
	ctx, cancel := context.WithTimeout(context.Background(), profiledStopTimeout)
	defer cancel()
	if err := ns.Shutdown(ctx); err != nil {
		log.WithError(err).Error("stop name server")
		return 1
	}
	return 0
}

// startCPUProfile starts profiling into path ("" profiles nothing) and
// returns the function that finishes the file.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, errors.Join(fmt.Errorf("start cpu profile: %w", err), os.Remove(path))
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}

// waitForSignal blocks until SIGINT or SIGTERM.
func waitForSignal() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
}
