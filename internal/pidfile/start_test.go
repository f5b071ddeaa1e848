package pidfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestStartWritesAndStopRemoves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "controller.pid")
	stop, err := Start(path, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no pid file after Start: %v", err)
	}
	stop()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("pid file after stop: %v", err)
	}
}
