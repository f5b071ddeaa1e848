package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintConfigAppliesFileThenFlag(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "broker.conf")
	if err := os.WriteFile(conf, []byte("brokerName=broker-z\nnamesrvAddr=1.1.1.1:9876\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-c", conf, "-n", "2.2.2.2:9876", "-p"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"brokerName=broker-z\n", "namesrvAddr=2.2.2.2:9876\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestBadConfigExitsNonZero(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-c", filepath.Join(t.TempDir(), "missing.conf")}, &stdout, &stderr); code == 0 {
		t.Fatal("missing config file accepted")
	}
	if !strings.Contains(stderr.String(), "missing.conf") {
		t.Errorf("stderr does not name the file: %s", stderr.String())
	}
}

func TestHelpMentionsNoMessageStore(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stderr.String(), "NO message store") {
		t.Errorf("help does not say there is no message store:\n%s", stderr.String())
	}
}
