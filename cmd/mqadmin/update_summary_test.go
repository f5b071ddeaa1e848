package main

import (
	"strings"
	"testing"
)

func TestPrintUpdateSummaries(t *testing.T) {
	var b strings.Builder
	printUpdateSummaries(&b, []string{"a:1", "b:2", "c:3"}, map[string]string{"a:1": "changed now: orderMessageEnable", "b:2": ""})
	want := "a:1: changed now: orderMessageEnable\nb:2: updated (the server does not say which keys changed)\n"
	if b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}
