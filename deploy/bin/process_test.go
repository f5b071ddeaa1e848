package bin

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// exitDeadline is how long a test waits for a process to write its pid file
// or to exit after SIGTERM: generous, the machine may be busy building.
const exitDeadline = 60 * time.Second

// lockedBuffer is a process's output, written by exec's copier while the
// test reads it.
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

// process is a command the test started; exited is closed once it has
// exited, waitErr then holds its status.
type process struct {
	cmd     *exec.Cmd
	out     *lockedBuffer
	exited  chan struct{}
	waitErr error
}

// start runs name args with env added to the test's environment; the
// process is killed at the end of the test if still running.
func start(t *testing.T, env []string, name string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(name, args...), out: &lockedBuffer{}, exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.waitErr = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	return p
}

func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// waitPidFile waits until path holds the process's pid.
func (p *process) waitPidFile(t *testing.T, path string) {
	t.Helper()
	want := strconv.Itoa(p.cmd.Process.Pid)
	for end := time.Now().Add(exitDeadline); ; time.Sleep(20 * time.Millisecond) {
		if got, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(got)) == want {
			return
		}
		if p.hasExited() {
			t.Fatalf("%s exited before writing pid %s to %s: %v\n%s", p.cmd.Path, want, path, p.waitErr, p.out.String())
		}
		if time.Now().After(end) {
			got, err := os.ReadFile(path)
			t.Fatalf("%s holds %q (%v), want pid %s\n%s", path, got, err, want, p.out.String())
		}
	}
}

// waitCleanExit wants the process to exit with status 0.
func (p *process) waitCleanExit(t *testing.T) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(exitDeadline):
		t.Fatalf("%s still running %s after mqshutdown:\n%s", p.cmd.Path, exitDeadline, p.out.String())
	}
	if p.waitErr != nil {
		t.Fatalf("%s exit after mqshutdown: %v, want status 0\n%s", p.cmd.Path, p.waitErr, p.out.String())
	}
}
