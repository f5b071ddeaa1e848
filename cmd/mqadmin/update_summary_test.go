package main

import (
	"strings"
	"testing"
)

func TestUpdateSummaryComparesBeforeAndAfter(t *testing.T) {
	before := parseConfigView([]byte("listenPort=9876\norderMessageEnable=false\nserverSocketBacklog=1024\n"))
	after := parseConfigView([]byte("listenPort=9876\norderMessageEnable=true\nserverSocketBacklog=2048\n" +
		pendingRestartPrefix + "serverSocketBacklog=2048 (running: 1024)\n"))
	if got, want := updateSummary(before, after, pendingAfter), "changed now: orderMessageEnable; changed, waits for a restart: serverSocketBacklog"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := updateSummary(after, after, pendingAfter); got != "no key changed" {
		t.Fatalf("unchanged: %q", got)
	}
	// A Go key at its default leaves GET's list: set back, it is a change.
	if got := updateSummary(parseConfigView([]byte("logLevel=debug\n")), parseConfigView(nil), pendingAfter); got != "changed now: logLevel" {
		t.Fatalf("key left the list: %q", got)
	}
}

func TestPrintUpdateSummaries(t *testing.T) {
	var b strings.Builder
	printUpdateSummaries(&b, []string{"a:1", "b:2", "c:3"}, map[string]string{"a:1": "changed now: orderMessageEnable", "b:2": ""})
	want := "a:1: changed now: orderMessageEnable\nb:2: updated (its settings could not be read to say which keys changed)\n"
	if b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}
