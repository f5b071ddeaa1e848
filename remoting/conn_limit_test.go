package remoting

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
)

// fdChildEnv makes TestFdLimitChild run as the child process of the file
// limit tests: it lowers its own RLIMIT_NOFILE, so the test process keeps its own.
const fdChildEnv = "REMOTING_FD_LIMIT_CHILD"

// childFileLimit is the child's RLIMIT_NOFILE; the reproduction
// (ulimit -n 64 and 80 connections).
const childFileLimit = 64

// TestFdLimitChild is not a test: it is the body of the child process.
// Mode "serve" serves until killed; mode "exhaust" then uses up every free
// descriptor, so the next accept fails with EMFILE, and exits 3 once the
// server reports that it stopped serving.
func TestFdLimitChild(t *testing.T) {
	mode := os.Getenv(fdChildEnv)
	if mode == "" {
		t.Skip("child process of the file limit tests only")
	}
	limit := syscall.Rlimit{Cur: childFileLimit, Max: childFileLimit}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(2)
	}
	logger := logrus.New()
	logger.SetOutput(os.Stderr)
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", NumEventLoops: 1, Logger: logrus.NewEntry(logger)})
	server.Handle(GET_NAMESRV_CONFIG, echoHandler)
	if err := server.Start(); err != nil {
		fmt.Println("start:", err)
		os.Exit(2)
	}
	if mode == "exhaust" {
		var held []*os.File
		for {
			f, err := os.Open(os.DevNull)
			if err != nil {
				break
			}
			held = append(held, f)
		}
		defer func() {
			for _, f := range held {
				f.Close()
			}
		}()
	}
	fmt.Println("listening", server.Addr())
	select {
	case <-server.Failed():
		fmt.Println("failed:", server.FailErr())
		os.Exit(3)
	case <-time.After(2 * waitLimit):
		os.Exit(0)
	}
}

// lockedBuffer collects a child's output while the test reads it.
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

// startFdChild runs TestFdLimitChild in mode and returns its address; its
// standard error collects in stderr.
func startFdChild(t *testing.T, mode string, stderr *lockedBuffer) (*exec.Cmd, string, <-chan error) {
	t.Helper()
	child := exec.Command(os.Args[0], "-test.run=^TestFdLimitChild$", "-test.count=1")
	child.Env = append(os.Environ(), fdChildEnv+"="+mode)
	child.Stderr = stderr
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := bufio.NewScanner(stdout)
	addr := make(chan string, 1)
	go func() {
		for lines.Scan() {
			if rest, ok := strings.CutPrefix(lines.Text(), "listening "); ok {
				addr <- rest
			}
		}
		exited <- child.Wait()
	}()
	t.Cleanup(func() { _ = child.Process.Kill() })
	select {
	case a := <-addr:
		return child, a, exited
	case err := <-exited:
		t.Fatalf("child exited before listening: %v\n%s", err, stderr)
	case <-time.After(waitLimit):
		t.Fatalf("child not listening\n%s", stderr)
	}
	return nil, "", nil
}

// askOnce sends one request on conn and reports whether it was answered.
func askOnce(conn net.Conn, opaque int32) bool {
	frame, _ := Encode(&Command{Code: GET_NAMESRV_CONFIG, Opaque: opaque, ExtFields: map[string]string{"echo": "x"}})
	_ = conn.SetDeadline(time.Now().Add(waitLimit))
	if _, err := conn.Write(frame); err != nil {
		return false
	}
	var prefix [4]byte
	_, err := conn.Read(prefix[:])
	return err == nil
}

// TestLowFileLimitNeverLeavesAZombie reproduces the listener's death of
// issue 13: under a file limit of 64, 80 connections made gnet's accept fail
// with EMFILE and end the engine, and the process stayed up with no
// listener. gnet's acceptor takes every queued connection before the event
// loop sees the first, so a burst can still pass the cap; then the server
// reports it and the process exits non-zero (status 3 here; the namesrv
// binary exits 1). Either the child serves new connections after the burst,
// or it has exited so with a clear log line; never alive and deaf.
func TestLowFileLimitNeverLeavesAZombie(t *testing.T) {
	var stderr lockedBuffer
	_, addr, exited := startFdChild(t, "serve", &stderr)
	var conns []net.Conn
	for range 80 {
		conn, err := net.DialTimeout("tcp", addr, waitLimit)
		if err != nil {
			break // the listener is gone already
		}
		conns = append(conns, conn)
	}
	for i, conn := range conns {
		askOnce(conn, int32(i))
	}
	for _, conn := range conns {
		conn.Close()
	}
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(stderr.String(), "no longer listening") {
				t.Fatalf("child ended with %v, want status 3 and a clear log line\n%s", err, &stderr)
			}
			return
		default:
		}
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			served := askOnce(conn, 1000)
			conn.Close()
			if served {
				if !strings.Contains(stderr.String(), "connection limit reached") {
					t.Errorf("no warning about the connection limit in the log:\n%s", &stderr)
				}
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("after the burst the child neither serves nor exited\n%s", &stderr)
}

// TestServerReportsDeadListener: when an accept fails anyway (every
// descriptor used by something else), gnet ends its engine; the server
// closes Failed, so its owner can exit non-zero, instead of living on
// without a listener.
func TestServerReportsDeadListener(t *testing.T) {
	var stderr lockedBuffer
	_, addr, exited := startFdChild(t, "exhaust", &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for ctx.Err() == nil {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
		}
		select {
		case err := <-exited:
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 3 {
				t.Fatalf("child ended with %v, want exit status 3\n%s", err, &stderr)
			}
			if !strings.Contains(stderr.String(), "no longer listening") {
				t.Fatalf("no clear log line:\n%s", &stderr)
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("the child kept running without a listener\n%s", &stderr)
}

// TestMaxConnectionsRefusesPastTheCap: with maxConnections 2 the third
// connection is closed at once and counted; closing one admits a new one.
func TestMaxConnectionsRefusesPastTheCap(t *testing.T) {
	server := startServer(t, ServerConfig{MaxConnections: 2}, func(s *Server) { s.Handle(GET_NAMESRV_CONFIG, echoHandler) })
	first, second := dialRaw(t, server), dialRaw(t, server)
	for i, peer := range []*rawConn{first, second} {
		peer.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: int32(i)})
		peer.read()
	}
	third := dialRaw(t, server)
	third.expectClosed()
	if got := server.RefusedConnections(); got != 1 {
		t.Fatalf("RefusedConnections = %d, want 1", got)
	}
	first.conn.Close()
	deadline := time.Now().Add(waitLimit)
	for server.OpenConnections() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("OpenConnections = %d after a close, want 1", server.OpenConnections())
		}
		time.Sleep(5 * time.Millisecond)
	}
	fourth := dialRaw(t, server)
	fourth.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 9})
	if resp := fourth.read(); resp.Opaque != 9 {
		t.Fatalf("fourth connection answered %+v", resp)
	}
}
