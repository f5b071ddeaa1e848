package test

import (
	"net"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestKilledNamesrvLeavesNoTempFolder: kill -9 of a NameServer that is
// serving leaves nothing in its temp folder (it used to leave
// gonamesrv-NNN/unused.sock, gnet's parking socket, every time).
func TestKilledNamesrvLeavesNoTempFolder(t *testing.T) {
	tmp := t.TempDir()
	port := freePort(t)
	dataDir := t.TempDir()
	p := &process{t: t, name: "namesrv", Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), DataDir: dataDir,
		env:  []string{"TMPDIR=" + tmp},
		args: []string{"-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port), "-data", dataDir, "-httpListenPort", "-1"}}
	p.start()
	// An answer means the event loops run (the TCP port listens before them).
	if _, err := call(p.Addr, remoting.GET_NAMESRV_CONFIG, nil); err != nil {
		t.Fatal(err)
	}
	p.Kill()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, _ := e.Info()
		t.Errorf("left in TMPDIR after kill -9: %s (%v, %s)", e.Name(), info.Mode(), info.ModTime().Format(time.RFC3339))
	}
}
