package remoting

import (
	"sync"
	"testing"
	"time"
)

// recordingObserver keeps every event it sees.
type recordingObserver struct {
	mu       sync.Mutex
	opened   int
	closed   int
	answers  []observedAnswer
	busyPool []string
}

type observedAnswer struct {
	request, response int32
	took              time.Duration
	bytes             int
}

func (o *recordingObserver) ConnOpened(*Conn) { o.mu.Lock(); o.opened++; o.mu.Unlock() }
func (o *recordingObserver) ConnClosed(*Conn) { o.mu.Lock(); o.closed++; o.mu.Unlock() }
func (o *recordingObserver) Answered(request, response int32, took time.Duration, bytes int) {
	o.mu.Lock()
	o.answers = append(o.answers, observedAnswer{request, response, took, bytes})
	o.mu.Unlock()
}
func (o *recordingObserver) Busy(pool string) {
	o.mu.Lock()
	o.busyPool = append(o.busyPool, pool)
	o.mu.Unlock()
}

// waitFor polls cond under the observer's lock until it holds.
func (o *recordingObserver) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		o.mu.Lock()
		ok := cond()
		o.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("observer never saw %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestObserverSeesConnectionsAnswersAndBusy: an event-loop answer, a
// worker answer, an unknown code and a SYSTEM_BUSY each reach the observer
// with the request code, the answer's code and the bytes written.
func TestObserverSeesConnectionsAnswersAndBusy(t *testing.T) {
	obs := &recordingObserver{}
	gate := make(chan struct{})
	server := startServer(t, ServerConfig{SlowWorkers: 1, SlowQueue: 1}, func(s *Server) {
		s.SetObserver(obs)
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
		s.Handle(REGISTER_BROKER, func(_ *Conn, req *Command) *Command {
			<-gate
			return NewResponse(req, SUCCESS, "")
		}, Slow())
	})
	peer := dialRaw(t, server)
	obs.waitFor(t, "the connection open", func() bool { return obs.opened == 1 })

	peer.send(bodyRequest(GET_ROUTEINFO_BY_TOPIC, 1, 100))
	frame := peer.readFrameBytes()
	peer.send(bodyRequest(9999, 2, 0))
	expectAnswer(t, peer, 2, REQUEST_CODE_NOT_SUPPORTED, unsupportedRemark(9999))
	peer.send(bodyRequest(REGISTER_BROKER, 3, 10)) // on the worker, held
	peer.send(bodyRequest(REGISTER_BROKER, 4, 10)) // queued
	peer.send(bodyRequest(REGISTER_BROKER, 5, 10)) // queue full
	expectAnswer(t, peer, 5, SYSTEM_BUSY, remarkOverload)
	if stats := server.PoolStats(); len(stats) != 1 || stats[0].Name != "" || stats[0].Capacity != 1 {
		t.Fatalf("pool stats %+v, want the default pool with a queue of 1", stats)
	}
	close(gate)
	expectAnswer(t, peer, 3, SUCCESS, "")
	expectAnswer(t, peer, 4, SUCCESS, "")
	obs.waitFor(t, "five answers", func() bool { return len(obs.answers) == 5 })

	obs.mu.Lock()
	byOpaque := obs.answers
	if a := byOpaque[0]; a.request != GET_ROUTEINFO_BY_TOPIC || a.response != SUCCESS || a.bytes != len(frame) || a.took <= 0 {
		t.Errorf("route answer observed as %+v, want code 105 answered 0 with %d bytes and a handler time", a, len(frame))
	}
	if a := byOpaque[1]; a.request != 9999 || a.response != REQUEST_CODE_NOT_SUPPORTED || a.took != 0 || a.bytes == 0 {
		t.Errorf("unknown code observed as %+v, want answered 3 with no handler time", a)
	}
	if a := byOpaque[2]; a.request != REGISTER_BROKER || a.response != SYSTEM_BUSY {
		t.Errorf("busy answer observed as %+v, want code 103 answered 2", a)
	}
	for _, a := range byOpaque[3:] {
		if a.request != REGISTER_BROKER || a.response != SUCCESS || a.took <= 0 || a.bytes == 0 {
			t.Errorf("worker answer observed as %+v, want code 103 answered 0 with a handler time", a)
		}
	}
	if len(obs.busyPool) != 1 || obs.busyPool[0] != "" {
		t.Errorf("busy pools %q, want the default pool once", obs.busyPool)
	}
	obs.mu.Unlock()
	if held, limit := server.RequestMemory(); held != 0 || limit != DefaultServerConfig().RequestMemoryLimit {
		t.Errorf("request memory %d of %d after every answer", held, limit)
	}

	peer.conn.Close()
	obs.waitFor(t, "the connection close", func() bool { return obs.closed == 1 })
}

// TestRequestCodesAreNamed: every listed code has a name, in order.
func TestRequestCodesAreNamed(t *testing.T) {
	codes := RequestCodes()
	if len(codes) == 0 {
		t.Fatal("no request codes")
	}
	for i, code := range codes {
		if i > 0 && codes[i-1] >= code {
			t.Fatalf("codes not increasing at %d", i)
		}
		if RequestCodeName(code) == "" || RequestCodeName(code)[0] < 'A' {
			t.Fatalf("code %d has no name", code)
		}
	}
}
