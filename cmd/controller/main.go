// Command controller runs one RocketMQ 5 controller node (Java's
// mqcontroller): automatic master election for brokers with
// enableControllerMode=true, on hashicorp/raft. Config keys are Java's
// ControllerConfig keys plus ours (controller/config/README.md); SIGINT or
// SIGTERM stops it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
	"github.com/gonamesrv/gonamesrv/internal/logsetup"
	"github.com/gonamesrv/gonamesrv/internal/pidfile"
)

// shutdownTimeout bounds a graceful stop.
const shutdownTimeout = 15 * time.Second

// httpReadHeaderTimeout bounds a side-port request's header read;
// httpIdleTimeout closes kept-alive connections left unused.
const (
	httpReadHeaderTimeout = 10 * time.Second
	httpIdleTimeout       = 10 * time.Second
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if buildinfo.Requested(args) {
		fmt.Fprintln(stdout, buildinfo.Read().String("controller"))
		return 0
	}
	pidPath, args, err := pidfile.FromArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "controller:", err)
		return 1
	}
	cfg, printOnly, err := config.FromArgs(args, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "controller:", err)
		return 1
	}
	if printOnly {
		return 0
	}
	log, err := logsetup.New(cfg.LogFormat, cfg.LogLevel, "controller")
	if err != nil {
		fmt.Fprintln(stderr, "controller:", err)
		return 1
	}
	for _, u := range cfg.UnknownKeys() {
		log.WithFields(u.LogFields(cfg.ConfigFile())).Warn("unknown key in the config file, ignored: " + u.String())
	}
	// Before the node listens, as in cmd/namesrv: a SIGTERM between the
	// listen and Notify would kill it with the default action.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	removePID, err := pidfile.Start(pidPath, log)
	if err != nil {
		log.WithError(err).Error("start controller")
		return 1
	}
	defer removePID()
	svc, err := node.Start(cfg, log)
	if err != nil {
		log.WithError(err).Error("start controller")
		return 1
	}
	stopHTTP, err := serveHTTP(cfg, svc.Node, log)
	if err != nil {
		log.WithError(err).Error("start controller side port")
		_ = svc.Shutdown(context.Background())
		return 1
	}
	var sig os.Signal
	select {
	case sig = <-signals:
	case <-svc.Server.Failed():
		log.Error("the event loops died; exiting with status 1 so that a supervisor restarts the controller")
		return 1
	case <-svc.Node.Failed():
		// The node met an entry it cannot apply and stopped Raft: this
		// process would serve nothing more. Exit 1 so that a supervisor
		// sees it; the store is left as it was for the operator.
		log.WithError(svc.Node.Down()).Error("controller down; exiting with status 1 (docs/operations.md, damaged controller store)")
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		stopHTTP(ctx)
		_ = svc.Shutdown(ctx)
		return 1
	}
	log.WithField("signal", sig.String()).Info("stopping controller")
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	stopHTTP(ctx)
	if err := svc.Shutdown(ctx); err != nil {
		log.WithError(err).Error("stop controller")
		return 1
	}
	return 0
}

// serveHTTP starts the side port (httpListenPort; -1 off, on bindAddress)
// with /healthz, /readyz, /metrics and /v1/controller.
func serveHTTP(cfg *config.Config, n *node.Node, log *logrus.Entry) (func(context.Context), error) {
	port, err := cfg.HTTPPort()
	if err != nil || port < 0 {
		return func(context.Context) {}, err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(cfg.BindAddress, strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("side port %d: %w", port, err)
	}
	srv := &http.Server{Handler: n.HTTPHandler(), ReadHeaderTimeout: httpReadHeaderTimeout, IdleTimeout: httpIdleTimeout}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.WithError(err).Error("controller side port stopped")
		}
	}()
	log.WithField("httpAddr", ln.Addr().String()).Info("controller side port: /healthz /readyz /metrics /v1/controller")
	return func(ctx context.Context) { _ = srv.Shutdown(ctx) }, nil
}
