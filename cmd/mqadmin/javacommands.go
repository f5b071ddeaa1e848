package main

import (
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// javaCommandsText is Apache RocketMQ 5.3.3's mqadmin command names, kept as
// data: a name we do not have but Java does is pointed at Java's tool.
//
//go:embed javacommands.txt
var javaCommandsText string

// javaCommandNames is the list of javacommands.txt, comments left out.
func javaCommandNames() []string {
	var names []string
	for _, line := range strings.Split(javaCommandsText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			names = append(names, line)
		}
	}
	return names
}

// javaOnlyCommands are Java's commands that are not in the command table,
// in Java's order. Computed at run time, so a command added to the table
// stops being one.
func javaOnlyCommands() []string {
	var names []string
	for _, name := range javaCommandNames() {
		if _, ok := findCommand(name); !ok {
			names = append(names, name)
		}
	}
	return names
}

// javaOnlyCommand returns Java's spelling of name when it is one of
// javaOnlyCommands (matched case-insensitively, as commands are).
func javaOnlyCommand(name string) (string, bool) {
	for _, java := range javaOnlyCommands() {
		if strings.EqualFold(java, name) {
			return java, true
		}
	}
	return "", false
}

// javaOnlyMessage is what a Java-only command name gets.
func javaOnlyMessage(name string) string {
	return fmt.Sprintf("mqadmin: %s is a command of Apache RocketMQ's mqadmin (tools) that this route-tier mqadmin does not have; use Java's mqadmin for it", name)
}

// reportUnknownCommand tells what an unknown command name is: a command of
// Java's mqadmin (use that tool), or neither ours nor Java's, with Java's
// "not exist" line and the closest name of either (the command list when
// none is close). The exit status is 1 either way.
func reportUnknownCommand(w io.Writer, name string) {
	if java, ok := javaOnlyCommand(name); ok {
		fmt.Fprintln(w, javaOnlyMessage(java))
		return
	}
	fmt.Fprintf(w, "The sub command %s not exist.\n", name)
	javaOnly := javaOnlyCommands()
	candidates := javaOnly
	for _, cmd := range commands {
		candidates = append(candidates, cmd.name)
	}
	closest := javaprops.Closest(name, candidates)
	switch {
	case closest == "":
		printCommandList(w)
	case slices.Contains(javaOnly, closest):
		fmt.Fprintf(w, "mqadmin: the closest command is %s, a command of Apache RocketMQ's mqadmin (tools) that this route-tier mqadmin does not have\n", closest)
	default:
		fmt.Fprintf(w, "mqadmin: the closest command is %s (see 'mqadmin help %s')\n", closest, closest)
	}
}

// javaPointer is the command list's last line: how many of Java's commands
// this mqadmin does not have, and where to run them.
func javaPointer() string {
	return fmt.Sprintf("The %d other commands of Apache RocketMQ's mqadmin (messages, consumers, stores, ACL, ...) are not here: use Java's mqadmin (tools) for them; 'mqadmin help NAME' says whether NAME is one.",
		len(javaOnlyCommands()))
}
