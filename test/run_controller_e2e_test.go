package test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// TestRunControllerScript: `make run-controller`'s script starts a 3-node
// group that elects a leader, and Ctrl-C (SIGINT to its process group)
// stops all three nodes; the group keeps everything under STORE.
func TestRunControllerScript(t *testing.T) {
	base, ok := nstest.FreePorts(0, -10, -20, 1000, 990, 980, 2000, 1990, 1980)
	if !ok {
		t.Fatal("no free ports")
	}
	cmd := exec.Command("sh", "scripts/run-controller.sh")
	cmd.Dir = ".."
	// A HOME of its own, keeping Go's caches where they are (the script
	// builds the binary).
	home, store := t.TempDir(), filepath.Join(t.TempDir(), "store")
	goEnv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	caches := strings.Fields(string(goEnv))
	if len(caches) != 3 {
		t.Fatalf("go env: %q", goEnv)
	}
	cmd.Env = append(os.Environ(), "BASE_PORT="+strconv.Itoa(base), "BIN="+t.TempDir(), "STORE="+store, "HOME="+home,
		"GOCACHE="+caches[0], "GOMODCACHE="+caches[1], "GOPATH="+caches[2])
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := os.CreateTemp("", "run-controller-*.log")
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(out.Name())
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	var addrs []string
	for i := range 3 {
		addrs = append(addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(base-10*i)))
	}
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	eventually(t, 90*time.Second, "a leader in the script's group", func() error {
		for _, a := range addrs {
			if md, err := probe.Metadata(a); err == nil && md.IsLeader {
				return nil
			}
		}
		return os.ErrNotExist
	})
	// Everything stays under STORE: an update lands in the node's own
	// file there, not in the user's ~/controller/controller.properties.
	mustMqadmin(t, "updateControllerConfig", "-a", addrs[0], "-k", "enableElectUncleanMaster", "-v", "true")
	if _, err := os.Stat(filepath.Join(store, "raft-n0", "controller.properties")); err != nil {
		t.Errorf("the update is not in STORE/raft-n0: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "controller")); err == nil {
		t.Error("the group wrote to ~/controller")
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		log, _ := os.ReadFile(out.Name())
		t.Fatalf("the script did not stop within 30 s of SIGINT:\n%s", log)
	}
	for _, a := range addrs {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still listens after Ctrl-C", a)
		}
	}
}
