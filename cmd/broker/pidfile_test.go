package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/pidfile/pidfiletest"
)

func TestMain(m *testing.M) {
	pidfiletest.Main(m, func(args []string) int { return run(args, os.Stdout, os.Stderr) })
}

// TestPidFile: -pidFile PATH holds the broker's pid while it runs and is
// gone after the SIGTERM stop (deploy/bin/mqshutdown stops by it).
func TestPidFile(t *testing.T) {
	port, ok := nstest.FreePort()
	if !ok {
		t.Skip("no free port")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "broker.conf")
	body := fmt.Sprintf("brokerName=broker-a\nlistenPort=%d\nbindAddress=127.0.0.1\nstorePathRootDir=%s\n", port, dir)
	if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	pidfiletest.Check(t, "-c", conf)
}
