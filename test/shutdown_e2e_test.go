package test

import (
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// signal sends sig to the process.
func (p *process) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
}

// waitExit waits up to timeout for the process to exit and returns its code,
// or -1 if it is still running.
func (p *process) waitExit(timeout time.Duration) int {
	select {
	case <-p.exited:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(timeout):
		return -1
	}
}

// TestSecondSignalStopsAtOnce: shutdownWaitTimeSeconds=2147483647 made
// SIGTERM wait 596,523 hours and a second SIGINT did nothing. Now the wait is
// bounded (600 s, a larger value stops the start) and a second signal stops
// the process at once, even during the longest wait.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	ns := startNamesrv(t, "-enableShutdownGracefully", "-shutdownWaitTimeSeconds", "600")
	c := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, c, nstest.BrokerAMaster)
	ns.signal(t, syscall.SIGTERM)
	if code := ns.waitExit(time.Second); code != -1 {
		t.Fatalf("exited with %d during its GO_AWAY wait", code)
	}
	ns.signal(t, syscall.SIGINT)
	if code := ns.waitExit(10 * time.Second); code != 130 {
		t.Fatalf("exit code %d after a second signal, want 130 within 10 s", code)
	}
}

// TestShutdownWaitReadOnceAtStart: shutdownWaitTimeSeconds set over the wire
// applies at the next start, as the README says; the running process keeps
// the wait it started with.
func TestShutdownWaitReadOnceAtStart(t *testing.T) {
	ns := startNamesrv(t, "-enableShutdownGracefully", "-shutdownWaitTimeSeconds", "1")
	c := nstest.NewClient(t, ns.Addr)
	update := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("shutdownWaitTimeSeconds=600\n"))
	nstest.MustCode(t, nstest.Invoke(t, c, update), remoting.SUCCESS)
	ns.signal(t, syscall.SIGTERM)
	if code := ns.waitExit(15 * time.Second); code != 0 {
		t.Fatalf("exit code %d (-1: still running) 15 s after SIGTERM with a 1 s wait at start, want 0", code)
	}
}
