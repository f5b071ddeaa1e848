// Package test holds end-to-end tests: they build the real binaries, start
// them on loopback ports and drive them over TCP with real clients.
package test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// binDir holds the binaries TestMain builds once for every test of the package.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gonamesrv-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: temp dir:", err)
		os.Exit(1)
	}
	pkgs := "../cmd/..."
	if only := os.Getenv("E2E_BUILD"); only != "" { // e.g. E2E_BUILD=../cmd/namesrv while iterating
		pkgs = only
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), pkgs)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: go build", pkgs+":", err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// freePort picks a port below the kernel's ephemeral range that nobody
// listens on, never one it returned before (nstest.FreePort).
func freePort(t testing.TB) int {
	t.Helper()
	port, ok := nstest.FreePort()
	if !ok {
		t.Fatal("free port: none free in 20000-31999")
	}
	return port
}

// process is one running binary of ours, stopped when the test ends.
type process struct {
	t       testing.TB
	name    string
	args    []string
	env     []string // added to this process's environment
	Addr    string
	DataDir string
	cmd     *exec.Cmd
	logPath string
	mu      sync.Mutex
	exited  chan struct{}
}

// startNamesrv starts cmd/namesrv on a free loopback port with its own data
// folder, plus any extra arguments, and waits until it accepts connections.
func startNamesrv(t testing.TB, extra ...string) *process {
	t.Helper()
	return startNamesrvIn(t, t.TempDir(), freePort(t), extra...)
}

// startNamesrvIn starts cmd/namesrv on a given port and data folder, so a test
// can restart a server with the same state.
func startNamesrvIn(t testing.TB, dataDir string, port int, extra ...string) *process {
	t.Helper()
	// The HTTP side port is off unless a test asks for it in extra (the
	// later flag wins): the default 9880 would clash between parallel tests.
	// /readyz is ready at once: no test waits out the 30 s warm-up.
	args := append([]string{"-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port), "-data", dataDir,
		"-httpListenPort", "-1", "-readinessWarmUpMillis", "0"}, extra...)
	p := &process{t: t, name: "namesrv", args: args, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), DataDir: dataDir}
	p.start()
	return p
}

func (p *process) start() {
	t := p.t
	t.Helper()
	logFile, err := os.CreateTemp("", p.name+"-*.log")
	if err != nil {
		t.Fatalf("log file: %v", err)
	}
	p.logPath = logFile.Name()
	cmd := exec.Command(filepath.Join(binDir, p.name), p.args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if len(p.env) > 0 {
		cmd.Env = append(os.Environ(), p.env...)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s %v: %v", p.name, p.args, err)
	}
	p.cmd = cmd
	p.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			if out, err := os.ReadFile(p.logPath); err == nil {
				t.Logf("%s log:\n%s", p.name, out)
			}
		}
		_ = os.Remove(p.logPath)
	})
	waitListening(t, p)
}

// waitListening polls until the process accepts TCP connections (or exits).
func waitListening(t testing.TB, p *process) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.exited:
			out, _ := os.ReadFile(p.logPath)
			t.Fatalf("%s exited (%v) before listening on %s:\n%s", p.name, p.cmd.ProcessState, p.Addr, out)
		default:
		}
		if c, err := net.DialTimeout("tcp", p.Addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s within 20s", p.name, p.Addr)
}

// Stop sends SIGTERM and waits for a graceful exit; it returns the exit code.
func (p *process) Stop() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return -1
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
	return p.cmd.ProcessState.ExitCode()
}

// Kill stops the process at once, as a crash would.
func (p *process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// Restart starts the same binary again with the same arguments.
func (p *process) Restart() {
	p.Kill()
	p.start()
}

// eventually polls cond until it holds or the timeout passes; the e2e tests use
// it where the server applies a change asynchronously (unregistration, eviction).
func eventually(t testing.TB, timeout time.Duration, what string, cond func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = cond(); err == nil {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s: not within %s: %v", what, timeout, err)
}
