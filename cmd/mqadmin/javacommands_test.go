package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestJavaCommandListIsJava533s(t *testing.T) {
	names := javaCommandNames()
	if len(names) != 89 || names[0] != "updateTopic" || names[len(names)-1] != "checkRocksdbCqWriteProgress" {
		t.Fatalf("%d names, first %q, last %q", len(names), names[0], names[len(names)-1])
	}
	ours := 0 // of Java's commands (a command of our own, e.g. getKvConfig, is not)
	for _, cmd := range commands {
		if slices.Contains(names, cmd.name) {
			ours++
		}
	}
	if got := len(javaOnlyCommands()); ours < 20 || got != len(names)-ours {
		t.Fatalf("%d Java-only commands, want %d", got, len(names)-ours)
	}
}

// A command added to the table stops being Java-only with no change to the
// list: the split is computed at run time.
func TestJavaOnlyCommandsFollowTheCommandTable(t *testing.T) {
	// printMsg: a command of Java's this route tier will not have.
	if _, ok := javaOnlyCommand("PRINTMSG"); !ok {
		t.Fatal("printMsg is not Java-only before it is added")
	}
	before := len(javaOnlyCommands())
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = append(slices.Clone(commands), command{name: "printMsg"})
	if _, ok := javaOnlyCommand("printMsg"); ok || slices.Contains(javaOnlyCommands(), "printMsg") {
		t.Fatal("printMsg still Java-only once in the table")
	}
	if want := fmt.Sprintf("The %d other commands", before-1); !strings.HasPrefix(javaPointer(), want) {
		t.Fatalf("pointer %q, want %q...", javaPointer(), want)
	}
}

func TestUnknownCommandNamesJavasToolOrTheClosest(t *testing.T) {
	cases := []struct{ name, want string }{
		{"queryMsgById", "mqadmin: queryMsgById is a command of Apache RocketMQ's mqadmin (tools) that this route-tier mqadmin does not have; use Java's mqadmin for it\n"},
		{"querymsgbyid", "mqadmin: queryMsgById is a command"},
		{"topicRout", "The sub command topicRout not exist.\nmqadmin: the closest command is topicRoute (see 'mqadmin help topicRoute')\n"},
		{"queryMsgByI", "mqadmin: the closest command is queryMsgById, a command of Apache RocketMQ's mqadmin (tools)"},
		{"zzzzzzzzzzzz", "The most commonly used mqadmin commands are:"},
	}
	for _, tc := range cases {
		var out bytes.Buffer
		reportUnknownCommand(&out, tc.name)
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, out.String(), tc.want)
		}
	}
	out, stderr, code := runCapture()
	if code != 0 || stderr != "" || !strings.HasSuffix(out, javaPointer()+"\n") {
		t.Fatalf("command list, exit %d: %s", code, out)
	}
	for _, args := range [][]string{{"producerConnection", "-n", "127.0.0.1:1"}, {"help", "producerConnection"}} {
		if _, stderr, code := runCapture(args...); code != 1 || stderr != javaOnlyMessage("producerConnection")+"\n" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
