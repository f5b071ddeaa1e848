// Package pidfiletest checks a binary's -pidFile end to end: the test
// binary re-runs itself as the command (its run function, in a process of
// its own, so that the pid and the signal are that process's), and the test
// waits for the file to hold the child's pid, sends SIGTERM, and wants exit
// status 0 with the file gone.
package pidfiletest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childArgs is the environment variable carrying the command's arguments
// (JSON) to the re-run test binary.
const childArgs = "PIDFILETEST_CHILD_ARGS"

// deadline is generous: the machine may be busy building.
const deadline = 60 * time.Second

// Main is the TestMain of a cmd package: in the child it runs the command
// and exits with its status, otherwise it runs the tests.
func Main(m *testing.M, run func(args []string) int) {
	if raw, ok := os.LookupEnv(childArgs); ok {
		var args []string
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			os.Stderr.WriteString("pidfiletest: bad " + childArgs + ": " + err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(run(args))
	}
	os.Exit(m.Run())
}

// lockedBuffer is the child's output, written by exec's copier and read by
// the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Check starts the command with args plus -pidFile in a fresh folder, waits
// for the pid file to hold the child's pid, sends SIGTERM and wants a clean
// exit (status 0) that removed the file.
func Check(t *testing.T, args ...string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run", "server.pid")
	raw, err := json.Marshal(append(args, "-pidFile", path))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgs+"="+string(raw))
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	want := strconv.Itoa(cmd.Process.Pid)
	for end := time.Now().Add(deadline); ; time.Sleep(20 * time.Millisecond) {
		if got, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(got)) == want {
			break
		}
		select {
		case <-exited:
			t.Fatalf("exited before writing pid %s to %s: %v\n%s", want, path, waitErr, out.String())
		default:
		}
		if time.Now().After(end) {
			got, err := os.ReadFile(path)
			t.Fatalf("pid file %s holds %q (%v) after %s, want %s\n%s", path, got, err, deadline, want, out.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(deadline):
		t.Fatalf("still running %s after SIGTERM\n%s", deadline, out.String())
	}
	if waitErr != nil {
		t.Fatalf("exit after SIGTERM: %v, want status 0\n%s", waitErr, out.String())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("pid file %s still there after a clean exit (%v)\n%s", path, err, out.String())
	}
}
