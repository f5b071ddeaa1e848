package test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// TestRunControllerScript: `make run-controller`'s script starts a 3-node
// group that elects a leader, and Ctrl-C (SIGINT to its process group)
// stops all three nodes.
func TestRunControllerScript(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1, 2, 1000, 1001, 1002, 2000, 2001, 2002)
	if !ok {
		t.Fatal("no free ports")
	}
	cmd := exec.Command("sh", "scripts/run-controller.sh")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "BASE_PORT="+strconv.Itoa(base), "BIN="+t.TempDir(), "STORE="+filepath.Join(t.TempDir(), "store"))
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
		addrs = append(addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(base+i)))
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
