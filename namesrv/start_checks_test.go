package namesrv

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// newRefused is New on cfg, which must fail; it returns the error.
func newRefused(t *testing.T, cfg *config.Config) error {
	t.Helper()
	logger, _ := logtest.NewNullLogger()
	log := logrus.NewEntry(logger)
	ns, err := New(config.NewSettings(cfg, log.WithField("component", "config")), log)
	if err == nil {
		_ = ns.Shutdown(t.Context())
		t.Fatal("the server started")
	}
	return err
}

// TestStartRefusesUnwritableFiles: a KV file or a config file whose folder
// cannot be written (here: under a regular file, which stops root too) stops
// the start with an error naming the key and the path, before the first
// PUT_KV_CONFIG or UPDATE_NAMESRV_CONFIG would have found it.
func TestStartRefusesUnwritableFiles(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"kvConfigPath", "configStorePath"} {
		cfg := testConfig(t)
		path := filepath.Join(blocker, "file")
		if key == "kvConfigPath" {
			cfg.KvConfigPath = path
		} else {
			cfg.ConfigStorePath = path
		}
		if err := newRefused(t, cfg); !strings.Contains(err.Error(), key+"="+path) {
			t.Errorf("%s under a file: %v, want an error naming %s=%s", key, err, key, path)
		}
	}
}

// TestStartNamesTheTakenRemotingPort: with the remoting port and the side
// port both held (a second NameServer on the same listenPort), the error
// names listenPort, not the side port that happens to be bound first.
func TestStartNamesTheTakenRemotingPort(t *testing.T) {
	base, ok := nstest.FreePorts(0, 4)
	if !ok {
		t.Fatal("no pair of free ports")
	}
	for _, port := range []int{base, base + 4} {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
	}
	cfg := testConfig(t)
	cfg.ListenPort, cfg.HTTPListenPort = base, base+4
	if err := newRefused(t, cfg); !strings.Contains(err.Error(), fmt.Sprintf("listenPort=%d", base)) {
		t.Fatalf("both ports taken: %v, want an error naming listenPort=%d", err, base)
	}
	// The side port alone taken: that is the port named.
	cfg.ListenPort = 0
	if err := newRefused(t, cfg); !strings.Contains(err.Error(), fmt.Sprintf("httpListenPort=%d", base+4)) {
		t.Fatalf("side port taken: %v", err)
	}
}
