package main

import (
	"strconv"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/pidfile/pidfiletest"
)

func TestMain(m *testing.M) { pidfiletest.Main(m, run) }

// TestPidFile: -pidFile PATH holds the NameServer's pid while it runs and is
// gone after the SIGTERM stop (deploy/bin/mqshutdown stops by it).
func TestPidFile(t *testing.T) {
	port, ok := nstest.FreePort()
	if !ok {
		t.Skip("no free port")
	}
	pidfiletest.Check(t, "-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port),
		"-httpListenPort", "-1", "-data", t.TempDir())
}
