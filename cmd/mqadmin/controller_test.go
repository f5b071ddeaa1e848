package main

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node/nodetest"
)

// startController runs a 1-node controller on loopback and returns its
// address and configuration.
func startController(t *testing.T) (string, *config.Config) {
	t.Helper()
	svc, addr := nodetest.StartOne(t)
	return addr, svc.Node.Config()
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
