package load

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// listenTCP accepts connections on loopback and hands each to serve.
func listenTCP(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return l.Addr().String()
}

func TestPlainPipesAreRawSocketsSharedByTheLoops(t *testing.T) {
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	// More pipes than loops: every loop serves several.
	pipes, err := DialPipes(context.Background(), addr, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer ClosePipes(pipes)
	for i, p := range pipes {
		if p.conn != nil || p.fd < 0 {
			t.Fatalf("pipe %d: a plain pipe on Linux must be a raw socket", i)
		}
	}
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	m, err := Run(context.Background(), Window{Measure: 100 * time.Millisecond}, HeartbeatStream(l, pipes, 4, false))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Phases[0]; p.Requests == 0 || p.ErrorCount() != 0 {
		t.Fatalf("%+v", p)
	}
	for i, p := range pipes {
		if p.broken != nil {
			t.Fatalf("pipe %d broke: %v", i, p.broken)
		}
	}
}

func TestALoopFailsAPipeWhoseServerStopsAnswering(t *testing.T) {
	checks, timeout := loopStallChecks, pipeStallTimeout
	loopStallChecks, pipeStallTimeout = 20*time.Millisecond, 200*time.Millisecond
	t.Cleanup(func() { loopStallChecks, pipeStallTimeout = checks, timeout })

	silent := listenTCP(t, func(c net.Conn) { _, _ = io.Copy(io.Discard, c) })
	hangsUp := listenTCP(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 1))
		_ = c.Close()
	})
	answering := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	var pipes []*Pipe
	for _, addr := range []string{silent, hangsUp, answering} {
		dialed, err := DialPipes(context.Background(), addr, 1)
		if err != nil {
			t.Fatal(err)
		}
		pipes = append(pipes, dialed...)
	}
	defer ClosePipes(pipes)
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	// The run can end only once the silent pipe has been failed.
	m, err := Run(context.Background(), Window{Measure: 50 * time.Millisecond}, HeartbeatStream(l, pipes, 3, false))
	if err != nil {
		t.Fatal(err)
	}
	p := m.Phases[0]
	if p.Errors["timeout"] != 3 || p.Errors["transport"] != 3 || p.Requests == 0 {
		t.Fatalf("want 3 timeouts (silent), 3 transport errors (hung up) and answers (the third): %+v", p)
	}
	if pipes[2].broken != nil {
		t.Fatalf("the answering pipe broke: %v", pipes[2].broken)
	}
}

// TestAWindowStaysOpenUntilEveryStreamHasAnswered reproduces a failure of
// niced test runs beside builds: a short window passed before the first
// answer arrived, and the phase reported no answers at all. A proxy here
// holds the server's answers back for six windows.
func TestAWindowStaysOpenUntilEveryStreamHasAnswered(t *testing.T) {
	server := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	const window, holdBack = 50 * time.Millisecond, 300 * time.Millisecond
	slow := listenTCP(t, func(c net.Conn) {
		defer c.Close()
		up, err := net.Dial("tcp", server)
		if err != nil {
			return
		}
		defer up.Close()
		// The first requests pass at once; the answers wait from then on.
		first := make([]byte, 64<<10)
		n, err := c.Read(first)
		if err != nil {
			return
		}
		_, _ = up.Write(first[:n])
		go func() { _, _ = io.Copy(up, c) }()
		time.Sleep(holdBack)
		_, _ = io.Copy(c, up)
	})
	pipes, err := DialPipes(context.Background(), slow, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ClosePipes(pipes)
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	m, err := Run(context.Background(), Window{Measure: window}, HeartbeatStream(l, pipes, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Phases[0]; p.Requests == 0 || p.ErrorCount() != 0 {
		t.Fatalf("the held-back answers must be counted: %+v", p)
	}
}
