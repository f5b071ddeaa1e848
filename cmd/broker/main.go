// Command broker is a route-only RocketMQ broker: it registers topics with
// NameServers exactly like a Java broker and answers the topic admin requests
// of mqadmin, but it has NO message store, so producers and consumers cannot
// send or receive messages through it. Use it to try a cluster on one machine
// and to load-test NameServers with many brokers.
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
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker"
	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/pidfile"
)

// shutdownTimeout bounds the unregistration and close on SIGINT/SIGTERM.
const shutdownTimeout = 15 * time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command-line flags, named like the Java broker's.
type options struct {
	configFile     string
	namesrvAddr    string
	printConfig    bool
	simulate       int
	simulateTopics int
	logLevel       string
	version        bool
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var opts options
	fs := flag.NewFlagSet("broker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.configFile, "c", "", "broker config file (Java broker.conf keys)")
	fs.StringVar(&opts.namesrvAddr, "n", "", "NameServer list, 'host:port;host:port' (overrides namesrvAddr)")
	fs.BoolVar(&opts.printConfig, "p", false, "print the effective config and exit")
	fs.IntVar(&opts.simulate, "simulate", 0, "run N simulated brokers (no listener) instead of one broker, for NameServer load tests")
	fs.IntVar(&opts.simulateTopics, "simulateTopics", 100, "topics per simulated broker")
	fs.StringVar(&opts.logLevel, "logLevel", "info", "log level: debug, info, warn, error")
	fs.BoolVar(&opts.version, "version", false, "print the build (module version, commit, build time, Go version) and exit")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	err := fs.Parse(args)
	return opts, err
}

const usageText = `usage: broker [-c broker.conf] [-n 'host:port;host:port'] [-p] [-simulate N -simulateTopics T]

A route-only RocketMQ broker: it registers its topics with the NameServers like a
Java broker (REGISTER_BROKER every registerNameServerPeriod, UNREGISTER_BROKER on
stop) and answers mqadmin's topic requests (updateTopic, deleteTopic, clusterList).
It has NO message store: producers and consumers cannot exchange messages with it.

Config keys (broker.conf): brokerClusterName, brokerName, brokerId, namesrvAddr,
listenPort, bindAddress (default 0.0.0.0), brokerIP1, brokerIP2, haListenPort, storePathRootDir,
registerNameServerPeriod (ms, clamped to 10000..60000), registerBrokerTimeoutMills,
forceRegister, compressedRegister, enableSplitRegistration, splitRegistrationSize,
brokerPermission, enableSlaveActingMaster, brokerHeartbeatInterval,
brokerNotActiveTimeoutMillis, compatibleWithOldNameSrv, autoCreateTopicEnable,
defaultTopicQueueNums, clusterTopicEnable, brokerTopicEnable, traceTopicEnable,
msgTraceTopicName, reviveQueueNum; Go-only: slaveSyncPeriod (ms, default 60000),
allowShortRegisterPeriod (tests/dev only: lifts the 10 s lower bound).
Controller mode (RocketMQ 5 controller, broker/README.md): enableControllerMode,
controllerAddr, fetchControllerAddrByDnsLookup, syncBrokerMetadataPeriod,
checkSyncStateSetPeriod, syncControllerMetadataPeriod, controllerHeartBeatTimeoutMills,
brokerElectionPriority, storePathBrokerIdentity, haMaxTimeSlaveNotCatchup,
haMaxGapNotInSync; Go-only: simulatedOffsetRate (bytes/s the simulated offset grows).

Flags:
  -pidFile PATH
    	write the pid there at start (atomically), removed at exit (deploy/bin/mqshutdown)
`

func run(args []string, stdout, stderr io.Writer) int {
	pidPath, args, err := pidfile.FromArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 2
	}
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if opts.version {
		fmt.Fprintln(stdout, buildinfo.Read().String("broker"))
		return 0
	}
	level, err := logrus.ParseLevel(opts.logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 2
	}
	logger := logrus.New()
	logger.SetOutput(stderr)
	logger.SetLevel(level)
	log := logrus.NewEntry(logger)

	cfg, unknown, err := loadConfig(opts)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 1
	}
	if opts.printConfig {
		printConfig(stdout, cfg)
		_, _ = stdout.Write(javaprops.UnknownComment(opts.configFile, unknown))
		return 0
	}
	for _, u := range unknown {
		log.WithFields(u.LogFields(opts.configFile)).Warn("unknown key in the config file, ignored: " + u.String())
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	removePID, err := pidfile.Start(pidPath, log)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 1
	}
	defer removePID()
	if opts.simulate > 0 {
		return runSimulation(ctx, cfg, opts, log, stderr)
	}
	b, err := broker.New(cfg, log)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 1
	}
	if err := b.Start(); err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "The broker[%s, %s] boot success. serializeType=JSON and name server is %s (route-only: no message store)\n",
		cfg.BrokerName, b.Addr(), cfg.NamesrvAddr)
	<-ctx.Done()
	log.Info("signal received; unregistering and stopping")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := b.Shutdown(shutdownCtx); err != nil {
		log.WithError(err).Warn("shutdown incomplete")
	}
	return 0
}

func runSimulation(ctx context.Context, cfg broker.Config, opts options, log *logrus.Entry, stderr io.Writer) int {
	sim, err := broker.StartSimulation(cfg, opts.simulate, opts.simulateTopics, log)
	if err != nil {
		fmt.Fprintf(stderr, "broker: %v\n", err)
		return 1
	}
	<-ctx.Done()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := sim.Shutdown(shutdownCtx); err != nil {
		log.WithError(err).Warn("shutdown incomplete")
	}
	return 0
}

// loadConfig applies defaults, then the file, then -n; it returns the
// file's keys the broker does not use too.
func loadConfig(opts options) (broker.Config, []javaprops.UnknownKey, error) {
	cfg := broker.DefaultConfig()
	var unknown []javaprops.UnknownKey
	if opts.configFile != "" {
		var err error
		if unknown, err = broker.LoadConfigFile(opts.configFile, &cfg); err != nil {
			return cfg, nil, err
		}
	}
	if opts.namesrvAddr != "" {
		cfg.NamesrvAddr = opts.namesrvAddr
	}
	return cfg, unknown, cfg.Validate()
}

// printConfig writes the effective settings as key=value lines.
func printConfig(w io.Writer, cfg broker.Config) {
	for _, line := range broker.ConfigLines(cfg) {
		fmt.Fprintln(w, line)
	}
}
