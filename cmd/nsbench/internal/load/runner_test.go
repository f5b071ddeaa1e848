package load

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// testServer is a remoting server on a free port answering with answer.
func testServer(t *testing.T, answer remoting.Handler) string {
	t.Helper()
	logger := logrus.New()
	logger.SetLevel(logrus.WarnLevel)
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: logrus.NewEntry(logger)})
	srv.HandleDefault(answer)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.Addr().String()
}

func TestRunCountsAnswersAndErrorsPerStream(t *testing.T) {
	var served atomic.Int64
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		served.Add(1)
		if req.ExtFields["topic"] == "bad" {
			return remoting.NewResponse(req, remoting.TOPIC_NOT_EXIST, "no")
		}
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	ctx := context.Background()
	clients, err := Dial(ctx, addr, 3, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(clients)
	good := Stream{Op: "good", Clients: clients[:2], InFlight: 2,
		NewSource: func(int, *rand.Rand) Source {
			return func() (*remoting.Command, Check) { return RouteRequest("good"), ExpectSuccess }
		}}
	bad := Stream{Op: "bad", Clients: clients[2:], InFlight: 1,
		Pause: func(*rand.Rand) time.Duration { return time.Millisecond },
		NewSource: func(int, *rand.Rand) Source {
			return func() (*remoting.Command, Check) { return RouteRequest("bad"), ExpectSuccess }
		}}
	m, err := Run(ctx, Window{Warmup: 20 * time.Millisecond, Measure: 200 * time.Millisecond}, good, bad)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Phases) != 2 || m.Seconds <= 0 {
		t.Fatalf("measurement %+v", m)
	}
	g, b := m.Phases[0], m.Phases[1]
	if g.Op != "good" || g.Conns != 2 || g.InFlight != 2 || g.Requests == 0 || g.ErrorCount() != 0 {
		t.Fatalf("good stream %+v", g)
	}
	if b.Requests == 0 || b.Errors["code 17"] != b.Requests {
		t.Fatalf("bad stream: every answer must count as code 17: %+v", b)
	}
	if uint64(served.Load()) < g.Requests+b.Requests {
		t.Fatalf("counted %d answers, the server served only %d", g.Requests+b.Requests, served.Load())
	}
	if g.PerSecond != float64(g.Requests)/m.Seconds || g.Latency.P50 <= 0 || g.Latency.Max < g.Latency.P99 {
		t.Fatalf("rate or latency inconsistent: %+v", g)
	}
	if g.ServerCPUMicrosPerOp != 0 {
		t.Fatal("without a server pid there is no CPU figure")
	}
}

func TestRunMeasuresTheServerProcessCPU(t *testing.T) {
	// The server runs in this process, so this process's pid is its pid.
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	ctx := context.Background()
	pipes, err := DialPipes(ctx, addr, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer ClosePipes(pipes)
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	m, err := Run(ctx, Window{Measure: 300 * time.Millisecond, ServerPID: osPid()}, HeartbeatStream(l, pipes, 4, false))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Phases[0]; p.ServerCPUMicrosPerOp <= 0 || p.ServerCPUCores <= 0 || m.ServerCPU <= 0 || p.GeneratorCPUMicrosPerOp <= 0 {
		t.Fatalf("a single stream with a pid must get CPU figures: %+v, cpu %v", p, m.ServerCPU)
	}
}

func TestRunRefusesAnEmptyStreamAndStopsOnCancel(t *testing.T) {
	if _, err := Run(context.Background(), Window{Measure: time.Millisecond}, Stream{Op: "none", InFlight: 1}); !errors.Is(err, ErrEmptyStream) {
		t.Fatalf("err %v, want ErrEmptyStream", err)
	}
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	pipes, err := DialPipes(context.Background(), addr, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer ClosePipes(pipes)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	if _, err := Run(ctx, Window{Warmup: time.Hour, Measure: time.Hour}, HeartbeatStream(l, pipes, 1, true)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

func TestErrorKind(t *testing.T) {
	cases := map[string]error{
		"timeout":           context.DeadlineExceeded,
		"canceled":          context.Canceled,
		"too many pending":  remoting.ErrTooManyPending,
		"connection closed": remoting.ErrConnectionClosed,
		"transport":         errors.New("something else"),
	}
	for want, err := range cases {
		if got := errorKind(errors.Join(errors.New("context"), err)); got != want {
			t.Errorf("errorKind(%v) = %q, want %q", err, got, want)
		}
	}
}
