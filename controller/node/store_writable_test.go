package node

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// TestStartRefusesAnUnwritableConfigStorePath: a configStorePath whose
// folder cannot be written (here under a regular file, which stops root
// too) stops the start with an error naming the key and the path; it used
// to start and refuse the first UPDATE_CONTROLLER_CONFIG.
func TestStartRefusesAnUnwritableConfigStorePath(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "controller.properties")
	cfg := groupConfigs(t, 1, func(c *config.Config) { c.ConfigStorePath = path })[0]
	svc, err := Start(cfg, testlog.Warnings())
	if err == nil {
		_ = svc.Shutdown(t.Context())
		t.Fatal("the node started")
	}
	if !strings.Contains(err.Error(), "configStorePath="+path) {
		t.Fatalf("start error %v, want one naming configStorePath=%s", err, path)
	}
}
