package load

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestPipesKeepTheirRequestsInFlightAndCheckEveryAnswer(t *testing.T) {
	var served atomic.Int64
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		served.Add(1)
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.Body = []byte(req.ExtFields["topic"])
		return resp
	})
	pipes, err := DialPipes(context.Background(), addr, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer ClosePipes(pipes)
	bodyIs := func(want string) Check {
		return func(resp *remoting.Command) string {
			if string(resp.Body) != want {
				return "wrong body"
			}
			return ExpectSuccess(resp)
		}
	}
	set := &RequestSet{
		Templates: []Template{MustTemplate(RouteRequest("a")), MustTemplate(RouteRequest("b"))},
		Checks:    []*AnswerCheck{NewAnswerCheck(bodyIs("a")), NewAnswerCheck(bodyIs("b"))},
	}
	window := Window{Warmup: 20 * time.Millisecond, Measure: 200 * time.Millisecond}
	for round := range 2 { // the pipes drain after a window and serve the next
		m, err := Run(context.Background(), window, Stream{Op: "route", Pipes: pipes, InFlight: 8, Requests: set})
		if err != nil {
			t.Fatal(err)
		}
		p := m.Phases[0]
		if p.Conns != 2 || p.InFlight != 8 || p.Requests == 0 || p.ErrorCount() != 0 || p.Latency.P50 <= 0 {
			t.Fatalf("round %d: %+v", round, p)
		}
		if uint64(served.Load()) < p.Requests {
			t.Fatalf("counted %d answers, the server served %d", p.Requests, served.Load())
		}
	}
	// Answers that do not match what was asked are errors.
	swapped := &RequestSet{Templates: set.Templates, Checks: []*AnswerCheck{set.Checks[1], set.Checks[0]}}
	m, err := Run(context.Background(), window, Stream{Op: "route", Pipes: pipes, InFlight: 2, Requests: swapped})
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Phases[0]; p.Requests == 0 || p.Errors["wrong body"] != p.Requests {
		t.Fatalf("every answer must be a wrong body: %+v", p)
	}
}

func TestABrokenPipeCountsItsRequestsAsErrors(t *testing.T) {
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	pipes, err := DialPipes(context.Background(), addr, 1)
	if err != nil {
		t.Fatal(err)
	}
	_ = pipes[0].Close()
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	m, err := Run(context.Background(), Window{Measure: 50 * time.Millisecond}, HeartbeatStream(l, pipes, 3, false))
	if err != nil {
		t.Fatal(err)
	}
	if pipes[0].broken == nil {
		t.Fatal("a pipe whose write failed must be marked broken")
	}
	m, err = Run(context.Background(), Window{Measure: 50 * time.Millisecond}, HeartbeatStream(l, pipes, 3, false))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Phases[0]; p.Errors["connection closed"] == 0 {
		t.Fatalf("a broken pipe must report itself: %+v", p)
	}
}
