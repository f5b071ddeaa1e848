package namesrv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

const unreadStoreWarning = "these keys apply at the next start, but only if it is started with -c <configStorePath>: " +
	"without that the file written is never read and they never take effect"

// TestUpdateWithoutConfigFileSaysTheKeysNeverApply reproduces an operator
// trap of issue 13: started without -c, UPDATE_NAMESRV_CONFIG of a key that
// applies at the next start wrote it to a file that the next start does not
// read, and nothing said so. Now a warning names the keys and the file; a
// live key, or a server started with -c, gets none.
func TestUpdateWithoutConfigFileSaysTheKeysNeverApply(t *testing.T) {
	s := startServer(t, nil)
	nstest.MustCode(t, s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("orderMessageEnable=true")), remoting.SUCCESS)
	if n := countLogged(s.hook, unreadStoreWarning); n != 0 {
		t.Fatalf("a live key was warned about (%d)", n)
	}
	nstest.MustCode(t, s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("defaultThreadPoolNums=20")), remoting.SUCCESS)
	if !logged(s.hook, logrus.WarnLevel, unreadStoreWarning) {
		t.Fatal("no warning that defaultThreadPoolNums never takes effect without -c")
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	if err := os.WriteFile(file, []byte("listenPort=0\nbindAddress=127.0.0.1\nhttpListenPort=-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.FromArgs([]string{"-c", file, "-kvConfigPath", filepath.Join(dir, "kv.json")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	logger, hook := logtest.NewNullLogger()
	ns, err := New(config.NewSettings(cfg, logrus.NewEntry(logger)), logrus.NewEntry(logger))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ns.Shutdown(context.Background()) })
	client := remoting.NewClient(ns.Addr().String(), remoting.ClientConfig{})
	t.Cleanup(func() { client.Close() })
	resp, err := client.Invoke(context.Background(), remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("defaultThreadPoolNums=20")))
	if err != nil {
		t.Fatal(err)
	}
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if n := countLogged(hook, unreadStoreWarning); n != 0 {
		t.Fatal("warned although the file is the -c file, read at the next start")
	}
}
