package remoting

import (
	"bytes"
	"testing"
)

// quickIfAsked answers on the event loop the requests whose "quick" field
// is set, with the body it saw and the pool's count, and declines the rest.
func quickIfAsked(conn *Conn, req *Command) *Command {
	if req.ExtFields["quick"] == "" {
		return nil
	}
	if req.ExtFields["quick"] == "panic" {
		panic("quick handler broke")
	}
	resp := NewResponse(req, SUCCESS, "quick")
	resp.Body = req.Body
	return resp
}

// A quick handler answers on the event loop while the pool is busy, and what
// it declines reaches the slow handler with its body untouched.
func TestTryFirstAnswersOnTheLoopAndDeclinesToThePool(t *testing.T) {
	blocking := newBlockingHandler()
	slow := func(conn *Conn, req *Command) *Command {
		blocking.handle(conn, req)
		resp := NewResponse(req, SUCCESS, "slow")
		resp.Body = req.Body
		return resp
	}
	server := startServer(t, ServerConfig{SlowWorkers: 1, SlowQueue: 4}, func(s *Server) {
		s.Handle(REGISTER_BROKER, slow, Slow(), TryFirst(quickIfAsked))
	})
	busy := dialRaw(t, server)
	declined := NewRequest(REGISTER_BROKER, map[string]string{}, bytes.Repeat([]byte("b"), 100<<10))
	declined.Opaque = 1
	busy.send(declined) // a large frame, on the pool's only worker until released
	<-blocking.started

	other := dialRaw(t, server)
	quick := NewRequest(REGISTER_BROKER, map[string]string{"quick": "yes"}, []byte("small body"))
	quick.Opaque = 2
	other.send(quick)
	if resp := other.read(); resp.Opaque != 2 || resp.Remark != "quick" || string(resp.Body) != "small body" {
		t.Fatalf("quick answer %+v, want remark quick and the request's body", *resp)
	}
	close(blocking.release)
	resp := busy.read()
	if resp.Opaque != 1 || resp.Remark != "slow" || !bytes.Equal(resp.Body, declined.Body) {
		t.Fatalf("declined request answered %q with %d body bytes, want slow with its %d", resp.Remark, len(resp.Body), len(declined.Body))
	}
	panicky := NewRequest(REGISTER_BROKER, map[string]string{"quick": "panic"}, nil)
	panicky.Opaque = 3
	other.send(panicky)
	if resp := other.read(); resp.Code != SYSTEM_ERROR || resp.Opaque != 3 {
		t.Fatalf("a panicking quick handler answered %+v, want SYSTEM_ERROR", *resp)
	}
}

// While a request of a connection is on the pool, its next request is not
// tried on the loop: its answer cannot overtake the earlier one's.
func TestTryFirstWaitsBehindTheConnectionsPooledRequest(t *testing.T) {
	blocking := newBlockingHandler()
	slow := func(conn *Conn, req *Command) *Command {
		if req.ExtFields["quick"] == "" {
			blocking.handle(conn, req)
		}
		return NewResponse(req, SUCCESS, "slow")
	}
	server := startServer(t, ServerConfig{SlowWorkers: 2, SlowQueue: 4}, func(s *Server) {
		s.Handle(REGISTER_BROKER, slow, Slow(), TryFirst(quickIfAsked))
	})
	peer := dialRaw(t, server)
	first := NewRequest(REGISTER_BROKER, map[string]string{}, nil)
	first.Opaque = 1
	peer.send(first)
	<-blocking.started
	second := NewRequest(REGISTER_BROKER, map[string]string{"quick": "yes"}, nil)
	second.Opaque = 2
	peer.send(second)
	// The second goes to the pool's other worker, which answers at once.
	if resp := peer.read(); resp.Opaque != 2 || resp.Remark != "slow" {
		t.Fatalf("second request answered %q (opaque %d), want by the pool", resp.Remark, resp.Opaque)
	}
	close(blocking.release)
	if resp := peer.read(); resp.Opaque != 1 {
		t.Fatalf("opaque %d, want the first", resp.Opaque)
	}
	// With nothing of the connection on the pool any more, the loop answers.
	third := NewRequest(REGISTER_BROKER, map[string]string{"quick": "yes"}, nil)
	third.Opaque = 3
	peer.send(third)
	if resp := peer.read(); resp.Opaque != 3 || resp.Remark != "quick" {
		t.Fatalf("third request answered %q, want quick", resp.Remark)
	}
}
