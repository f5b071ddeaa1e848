package remoting

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// fdChildEnv makes TestFdLimitChild run as the child process of the file
// limit tests: it lowers its own RLIMIT_NOFILE, so the test process keeps its own.
const fdChildEnv = "REMOTING_FD_LIMIT_CHILD"

// childFileLimit is the child's RLIMIT_NOFILE; the reproduction
// (ulimit -n 64 and 80 connections).
const childFileLimit = 64

// TestFdLimitChild is not a test: it is the body of the child process.
// Mode "serve" serves until killed; mode "exhaust" then uses up every free
// descriptor for a second, so that accepts fail with EMFILE meanwhile. The
// child exits 3 if the server reports that it stopped serving.
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
		go func() { // give the descriptors back once the parent has dialed
			time.Sleep(time.Second)
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

// startFdChild runs TestFdLimitChild in mode and returns its address; its
// standard error collects in stderr.
func startFdChild(t *testing.T, mode string, stderr *testlog.Buffer) (*exec.Cmd, string, <-chan error) {
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

// TestServerSurvivesLowFileLimit reproduces the listener's death of issue
// 13: under a file limit of 64, 80 connections made gnet's accept fail with
// EMFILE and end the engine; the process stayed up with no listener and
// every connection closed. Now the server accepts by itself: the
// connections past the cap are closed at once and counted, those within it
// are answered, and new connections are served once others close.
func TestServerSurvivesLowFileLimit(t *testing.T) {
	var stderr testlog.Buffer
	_, addr, exited := startFdChild(t, "serve", &stderr)
	var conns []net.Conn
	for range 80 {
		conn, err := net.DialTimeout("tcp", addr, waitLimit)
		if err != nil {
			t.Fatalf("dial: %v\n%s", err, &stderr)
		}
		conns = append(conns, conn)
	}
	answered := 0
	for i, conn := range conns {
		if askOnce(conn, int32(i)) {
			answered++
		}
	}
	for _, conn := range conns {
		conn.Close()
	}
	if answered == 0 || answered == len(conns) {
		t.Fatalf("%d of %d connections answered; want those within the cap only\n%s", answered, len(conns), &stderr)
	}
	deadline := time.Now().Add(waitLimit)
	for {
		conn, err := net.DialTimeout("tcp", addr, waitLimit)
		if err == nil {
			served := askOnce(conn, 1000)
			conn.Close()
			if served {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served after the burst\n%s", &stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	expectAliveAndLogged(t, exited, &stderr, "connection limit reached")
}

// expectAliveAndLogged fails unless the child still runs and logged want.
func expectAliveAndLogged(t *testing.T, exited <-chan error, stderr *testlog.Buffer, want string) {
	t.Helper()
	select {
	case err := <-exited:
		t.Fatalf("child exited: %v\n%s", err, stderr)
	default:
	}
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("the child's log lacks %q:\n%s", want, stderr)
	}
}

// TestServerKeepsListeningThroughEMFILE: while every descriptor is used by
// something else, accepts fail with EMFILE; the server backs off and keeps
// listening, and the connection that waited is served once descriptors are
// free again.
func TestServerKeepsListeningThroughEMFILE(t *testing.T) {
	var stderr testlog.Buffer
	_, addr, exited := startFdChild(t, "exhaust", &stderr)
	conn, err := net.DialTimeout("tcp", addr, waitLimit) // queued in the backlog
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if !askOnce(conn, 1) {
		t.Fatalf("the connection dialed during EMFILE was not served\n%s", &stderr)
	}
	expectAliveAndLogged(t, exited, &stderr, "accept failed, still listening")
}

// TestFailedReportsAnEngineThatEnded: if gnet's engine ends while the
// server runs (nothing known does it now that the server accepts by
// itself, but a poller error would), Failed is closed with the reason, so
// cmd/namesrv exits non-zero instead of living on without event loops.
func TestFailedReportsAnEngineThatEnded(t *testing.T) {
	server := startServer(t, ServerConfig{}, nil)
	select {
	case <-server.Failed():
		t.Fatal("Failed closed on a running server")
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_ = server.engine.Stop(ctx)
	select {
	case <-server.Failed():
	case <-time.After(waitLimit):
		t.Fatal("Failed not closed after the engine ended")
	}
	if server.FailErr() == nil {
		t.Fatal("no reason given")
	}
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

// TestStopEngineAfterTheEngineEndedIsNoError: once the engine has ended on
// its own, stopping it (Shutdown does) is not an error, however the stop
// and the end race. gnet's Stop then answers ErrEngineInShutdown at once,
// and stopEngine's select used to pick that answer over the closed runDone
// about 1 time in 20 under -race: TestFailedReportsAnEngineThatEnded's
// cleanup then failed with "shutdown: gnet engine is in shutdown".
func TestStopEngineAfterTheEngineEndedIsNoError(t *testing.T) {
	server := startServer(t, ServerConfig{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_ = server.engine.Stop(ctx)
	<-server.Failed()
	for i := range 2000 {
		if err := server.stopEngine(ctx); err != nil {
			t.Fatalf("stop %d of an engine that ended: %v", i, err)
		}
	}
}
