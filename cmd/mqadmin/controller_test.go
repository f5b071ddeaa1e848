package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// startController runs a 1-node controller on loopback and returns its
// address and configuration.
func startController(t *testing.T) (string, *config.Config) {
	t.Helper()
	base, ok := nstest.FreePorts(0, 1000)
	if !ok {
		t.Skip("no free loopback ports")
	}
	dir := t.TempDir()
	c := config.Default()
	c.ControllerDLegerPeers, c.ControllerDLegerSelfID = fmt.Sprintf("n0-127.0.0.1:%d", base), "n0"
	c.ControllerStorePath, c.ConfigStorePath = dir, filepath.Join(dir, "controller.properties")
	c.RaftHeartbeatTimeoutMillis, c.RaftElectionTimeoutMillis, c.HTTPListenPort = 300, 300, -1
	svc, err := node.Start(c, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	return fmt.Sprintf("127.0.0.1:%d", base), c
}

// updateControllerConfig of a key not changeable online exits non-zero and
// prints the controller's refusal (code 1 naming the key); nothing is
// written to configStorePath.
func TestUpdateControllerConfigPrintsTheRefusal(t *testing.T) {
	addr, cfg := startController(t)
	stdout, stderr, code := runCapture("updateControllerConfig", "-a", addr, "-k", "controllerStorePath", "-v", "/tmp/elsewhere")
	if code == 0 || stdout != "" || !strings.Contains(stderr, "CODE: 1 ") || !strings.Contains(stderr, "controllerStorePath cannot be changed over the wire") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(cfg.ConfigStorePath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the refused update wrote configStorePath: %v", err)
	}
	stdout, stderr, code = runCapture("updateControllerConfig", "-a", addr, "-k", "enableElectUncleanMaster", "-v", "true")
	if code != 0 || !strings.HasPrefix(stdout, "update controller config success!") || !strings.Contains(stdout, addr+": changed now: enableElectUncleanMaster\n") {
		t.Fatalf("a key changeable online: exit %d %q %q", code, stdout, stderr)
	}
}
