package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// captureOutput runs fn with os.Stdout and os.Stderr redirected and returns
// what it wrote to each. Tests using it must not run in parallel.
func captureOutput(t *testing.T, fn func()) (stdout, stderr string) {
	t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	savedOut, savedErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outW, errW
	outText, errText := readAll(outR), readAll(errR)
	defer func() {
		os.Stdout, os.Stderr = savedOut, savedErr
	}()
	fn()
	_ = outW.Close()
	_ = errW.Close()
	return <-outText, <-errText
}

// readAll drains r in its own goroutine, so a large output cannot fill the pipe.
func readAll(r *os.File) <-chan string {
	text := make(chan string, 1)
	go func() {
		var buf bytes.Buffer
		_, _ = io.Copy(&buf, r)
		_ = r.Close()
		text <- buf.String()
	}()
	return text
}

func TestRunPrintsConfig(t *testing.T) {
	var code int
	stdout, stderr := captureOutput(t, func() { code = run([]string{"-p", "-listenPort", "19876"}) })
	if code != 0 {
		t.Fatalf("run -p returned %d (stderr %q), want 0", code, stderr)
	}
	for _, want := range []string{"listenPort=19876\n", "enableAllTopicList=true\n", "scanNotActiveBrokerInterval=5000\n"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("-p output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRunBadArguments(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"unknown flag", []string{"-noSuchFlag"}},
		{"value that does not convert", []string{"-listenPort", "many"}},
		{"unknown log format", []string{"-log-format", "xml"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			_, stderr := captureOutput(t, func() { code = run(tc.args) })
			if code != 1 || !strings.HasPrefix(stderr, "namesrv: ") {
				t.Fatalf("run %v: code %d stderr %q, want 1 and an error on stderr", tc.args, code, stderr)
			}
		})
	}
}

func TestNewLogger(t *testing.T) {
	cases := []struct {
		name      string
		format    string
		level     string
		wantJSON  bool
		wantLevel logrus.Level
		wantErr   string
	}{
		{"defaults", "", "", false, logrus.InfoLevel, ""},
		{"text at debug", "text", "debug", false, logrus.DebugLevel, ""},
		{"json at warn", "json", "warn", true, logrus.WarnLevel, ""},
		{"unknown format", "xml", "", false, 0, "unknown log format"},
		{"unknown level", "text", "loud", false, 0, "log level"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.LogFormat, cfg.LogLevel = tc.format, tc.level
			entry, err := newLogger(cfg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("newLogger: %v", err)
			}
			_, isJSON := entry.Logger.Formatter.(*logrus.JSONFormatter)
			if isJSON != tc.wantJSON || entry.Logger.GetLevel() != tc.wantLevel {
				t.Fatalf("formatter %T level %s, want json %v level %s", entry.Logger.Formatter, entry.Logger.GetLevel(), tc.wantJSON, tc.wantLevel)
			}
			if entry.Data["service"] != "namesrv" {
				t.Fatalf("fields %v, want service=namesrv", entry.Data)
			}
		})
	}
}
