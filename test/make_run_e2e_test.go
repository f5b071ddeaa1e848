package test

import (
	"bytes"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadmeMakeRunStopsCleanlyOnCtrlC: `make run` (the README's first
// command) builds the binary and runs it as make's own child, so Ctrl-C (a
// SIGINT to the terminal's process group) stops the server gracefully and
// make reports no error; with `go run`, the go command exited 1 and make
// printed "make: *** [Makefile: run] Error 1". Make itself then ends by the
// interrupt, as it does for any target.
func TestReadmeMakeRunStopsCleanlyOnCtrlC(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("SKIPPED: make not found")
	}
	port := freePort(t)
	cmd := exec.Command("make", "run", "BIN="+t.TempDir(), "ARGS=-bindAddress 127.0.0.1 -listenPort "+strconv.Itoa(port)+
		" -data "+t.TempDir()+" -httpListenPort -1")
	cmd.Dir = ".."
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	// The build may take a while on a cold cache.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("make run ended (%v) before listening:\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("make run did not listen on %s:\n%s", addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("make run still running a minute after Ctrl-C:\n%s", out.String())
	}
	text := out.String()
	if strings.Contains(text, "make: ***") {
		t.Fatalf("make reported an error after Ctrl-C:\n%s", text)
	}
	if !strings.Contains(text, "name server stopped") {
		t.Fatalf("the server did not stop gracefully:\n%s", text)
	}
}
