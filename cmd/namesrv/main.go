// Command namesrv runs the NameServer: the route service RocketMQ brokers
// register with and clients ask where a topic lives. Flags and config keys are
// the Java ones (see README.md); SIGINT or SIGTERM stops it gracefully.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
	"github.com/gonamesrv/gonamesrv/internal/logsetup"
	"github.com/gonamesrv/gonamesrv/internal/pidfile"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// shutdownTimeout bounds how long a graceful stop waits for requests in flight.
const shutdownTimeout = 30 * time.Second

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	if buildinfo.Requested(args) {
		fmt.Println(buildinfo.Read().String("namesrv"))
		return 0
	}
	pidPath, args, err := pidfile.FromArgs(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "namesrv:", err)
		return 1
	}
	cfg, printOnly, err := config.FromArgs(args, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "namesrv:", err)
		return 1
	}
	if printOnly {
		return 0
	}
	log, err := newLogger(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "namesrv:", err)
		return 1
	}
	warnUnknownKeys(log, cfg.ConfigFile(), cfg.UnknownKeys())
	logFile, err := openLogFile(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "namesrv:", err)
		return 1
	}
	if logFile != nil {
		log.WithFields(logrus.Fields{"logFile": logFile.Filename, "logMaxSizeMB": cfg.LogMaxSizeMB,
			"logMaxAgeDays": cfg.LogMaxAgeDays, "logMaxBackups": cfg.LogMaxBackups}).Info("logging to the log file from now on (SIGHUP reopens it)")
		log.Logger.SetOutput(logFile)
		defer logFile.Close()
		defer reopenOnHangup(logFile, log)()
	}
	// Before the server listens: a SIGTERM that arrives once clients can
	// connect but before Notify would kill the process with the default
	// action, resetting every connection instead of the graceful stop (seen
	// in TestGracefulStopAnswersGoAwayFirst under nice). One caught during
	// the start is acted on once the start is done.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	removePID, err := pidfile.Start(pidPath, log)
	if err != nil {
		log.WithError(err).Error("start name server")
		return 1
	}
	defer removePID()
	ns, err := namesrv.New(config.NewSettings(cfg, log.WithField("component", "config")), log)
	if err != nil {
		log.WithError(err).Error("start name server")
		return 1
	}
	stopController, err := startEmbeddedController(cfg, ns, log)
	if err != nil {
		log.WithError(err).Error("start embedded controller")
		_ = ns.Shutdown(context.Background())
		return 1
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := stopController(ctx); err != nil {
			log.WithError(err).Warn("stop embedded controller")
		}
	}()
	var sig os.Signal
	select {
	case sig = <-signals:
	case <-ns.Failed():
		// Nothing is left to serve with: exit non-zero so that a supervisor
		// restarts the process (every KV and config write is on disk).
		log.WithError(ns.FailErr()).Error("the event loops died; exiting with status 1 so that a supervisor restarts the name server")
		return 1
	}
	log.WithFields(logrus.Fields{"signal": sig.String(), "deadline": (ns.GracefulWait() + shutdownTimeout).String()}).
		Info("stopping name server (a second signal stops at once)")
	ctx, cancel := context.WithTimeout(context.Background(), ns.GracefulWait()+shutdownTimeout)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- ns.Shutdown(ctx) }()
	select {
	case err := <-stopped:
		if err != nil {
			log.WithError(err).Error("stop name server")
			return 1
		}
		return 0
	case sig := <-signals:
		// Every acknowledged KV and config change is on disk already, so
		// nothing is lost by not waiting for the requests in flight.
		log.WithField("signal", sig.String()).Warn("second signal, stopping at once")
		return exitOnSecondSignal
	}
}

// exitOnSecondSignal is the exit status of a stop cut short by a second
// SIGINT or SIGTERM (128 + SIGINT, as a shell reports an interrupted command).
const exitOnSecondSignal = 130

// newLogger configures the process logger (internal/logsetup): namesrv
// hands it to each part it starts (route gets it in route.Config.Log).
func newLogger(cfg *config.Config) (*logrus.Entry, error) {
	return logsetup.New(cfg.LogFormat, cfg.LogLevel, "namesrv")
}
