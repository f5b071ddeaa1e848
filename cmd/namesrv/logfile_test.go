package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

func TestLogFilePath(t *testing.T) {
	for value, want := range map[string]string{
		"":                   "",
		"java":               "/home/rmq/logs/rocketmqlogs/namesrv.log",
		"~/ns/namesrv.log":   "/home/rmq/ns/namesrv.log",
		"/var/log/ns.log":    "/var/log/ns.log",
		"relative/ns.log":    "relative/ns.log",
		"~other/namesrv.log": "~other/namesrv.log",
	} {
		if got := logFilePath(value, "/home/rmq"); got != want {
			t.Errorf("logFilePath(%q) = %q, want %q", value, got, want)
		}
	}
}

func TestOpenLogFile(t *testing.T) {
	cfg := config.Default()
	if f, err := openLogFile(cfg); f != nil || err != nil {
		t.Fatalf("no logFile: %v, %v; want stderr (nil)", f, err)
	}
	dir := t.TempDir()
	cfg.LogFile = filepath.Join(dir, "a", "b", "namesrv.log")
	cfg.LogMaxSizeMB, cfg.LogMaxAgeDays, cfg.LogMaxBackups = 7, 3, 2
	f, err := openLogFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f.Filename != cfg.LogFile || f.MaxSize != 7 || f.MaxAge != 3 || f.MaxBackups != 2 {
		t.Fatalf("lumberjack settings %+v", f)
	}
	if _, err := os.Stat(cfg.LogFile); err != nil {
		t.Fatalf("the file is not created at start: %v", err)
	}
	blocker := filepath.Join(dir, "file")
	_ = os.WriteFile(blocker, nil, 0o644)
	cfg.LogFile = filepath.Join(blocker, "namesrv.log") // under a file: cannot be created
	if _, err := openLogFile(cfg); err == nil || !strings.Contains(err.Error(), "logFile") {
		t.Fatalf("an unwritable logFile: %v, want an error naming the key", err)
	}
}
