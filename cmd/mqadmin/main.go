// Command mqadmin is the RocketMQ operator tool for routes: the Java mqadmin
// commands that touch NameServers and topic configs, with the same names,
// options and output (updateTopic, deleteTopic, topicList, topicRoute,
// topicClusterList, clusterList, wipeWritePerm, addWritePerm, updateKvConfig,
// deleteKvConfig, getNamesrvConfig, updateNamesrvConfig, updateOrderConf),
// plus -json on the read commands for scripts.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv("NAMESRV_ADDR"), os.Stdout, os.Stderr))
}

// run executes one mqadmin invocation and returns the exit status.
func run(args []string, envNamesrv string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printCommandList(stdout)
		return 0
	}
	if buildinfo.Requested(args[:1]) {
		fmt.Fprintln(stdout, buildinfo.Read().String("mqadmin"))
		return 0
	}
	if args[0] == "help" {
		if len(args) < 2 {
			printCommandList(stdout)
			return 0
		}
		cmd, ok := findCommand(args[1])
		if !ok {
			reportUnknownCommand(stderr, args[1])
			return 1
		}
		fmt.Fprint(stdout, usage(cmd.name, cmd.allOptions()))
		return 0
	}
	cmd, ok := findCommand(args[0])
	if !ok {
		reportUnknownCommand(stderr, args[0])
		return 1
	}
	parsed, err := parseArgs(args[1:], cmd.allOptions())
	if err != nil {
		fmt.Fprintln(stderr, err)
		fmt.Fprint(stderr, usage(cmd.name, cmd.allOptions()))
		return 1
	}
	if parsed.has("h") {
		fmt.Fprint(stdout, usage(cmd.name, cmd.allOptions()))
		return 0
	}
	nameServers := envNamesrv
	if parsed.has("n") {
		nameServers = parsed.get("n")
	}
	nsConfig, err := nameServerConfig(parsed, os.Getenv("ROCKETMQ_HOME"))
	if err != nil {
		fmt.Fprintf(stderr, "%s command failed: %v\n", cmd.className, err)
		return 1
	}
	client := newAdminClient(splitAddrList(nameServers), nsConfig)
	defer client.close()
	e := &env{args: parsed, client: client, out: stdout, errOut: stderr, json: parsed.has("json"), now: time.Now()}
	err = cmd.run(e)
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		fmt.Fprint(stderr, usage(cmd.name, cmd.allOptions()))
	default:
		fmt.Fprintf(stderr, "%s command failed: %v\n", cmd.className, err)
	}
	return exitStatus(err)
}

// printCommandList is what `mqadmin` alone prints.
func printCommandList(w io.Writer) {
	fmt.Fprintln(w, "The most commonly used mqadmin commands are:")
	for _, cmd := range commands {
		fmt.Fprintf(w, "   %-35s %s\n", cmd.name, cmd.desc)
	}
	fmt.Fprintln(w, "\nSee 'mqadmin help <command>' for more information on a specific command.")
	fmt.Fprintln(w, javaPointer())
}
