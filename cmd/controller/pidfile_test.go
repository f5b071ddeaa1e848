package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/pidfile/pidfiletest"
)

func TestMain(m *testing.M) {
	pidfiletest.Main(m, func(args []string) int { return run(args, os.Stdout, os.Stderr) })
}

// TestPidFile: -pidFile PATH holds the controller's pid while it runs and is
// gone after the SIGTERM stop (deploy/bin/mqshutdown stops by it).
func TestPidFile(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1000)
	if !ok {
		t.Skip("no free ports")
	}
	pidfiletest.Check(t, "-controllerDLegerPeers", fmt.Sprintf("n0-127.0.0.1:%d", base),
		"-controllerDLegerSelfId", "n0", "-controllerStorePath", t.TempDir(), "-httpListenPort", "-1")
}
