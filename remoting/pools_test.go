package remoting

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestNamedPoolsDoNotWaitForEachOther: with the default pool's one worker
// held and its one queue slot taken, a third registration is answered
// SYSTEM_BUSY, while a request of the "admin" pool is answered at once.
func TestNamedPoolsDoNotWaitForEachOther(t *testing.T) {
	gate, started := make(chan struct{}), make(chan struct{}, 3)
	cfg := ServerConfig{SlowWorkers: 1, SlowQueue: 1, Pools: map[string]PoolSize{"admin": {Workers: 1, Queue: 1}}}
	server := startServer(t, cfg, func(s *Server) {
		s.Handle(REGISTER_BROKER, func(_ *Conn, req *Command) *Command {
			started <- struct{}{}
			<-gate
			return NewResponse(req, SUCCESS, req.ExtFields["echo"])
		}, Slow())
		s.Handle(PUT_KV_CONFIG, echoHandler, SlowIn("admin"))
		s.Handle(DELETE_KV_CONFIG, echoHandler, SlowIn("no such pool")) // the default pool
	})
	defer func() {
		select {
		case <-gate:
		default:
			close(gate)
		}
	}()
	brokers, operator := dialRaw(t, server), dialRaw(t, server)
	brokers.send(bodyRequest(REGISTER_BROKER, 1, 10))
	<-started // the worker holds the first; the second waits in the queue
	brokers.send(bodyRequest(REGISTER_BROKER, 2, 10))
	brokers.send(bodyRequest(REGISTER_BROKER, 3, 10))
	expectAnswer(t, brokers, 3, SYSTEM_BUSY, remarkOverload)
	operator.send(bodyRequest(PUT_KV_CONFIG, 4, 10))
	expectAnswer(t, operator, 4, SUCCESS, "4")
	operator.send(bodyRequest(DELETE_KV_CONFIG, 5, 10))
	expectAnswer(t, operator, 5, SYSTEM_BUSY, remarkOverload) // an unknown pool name is the default pool, full
	close(gate)
	expectAnswer(t, brokers, 1, SUCCESS, "1")
	expectAnswer(t, brokers, 2, SUCCESS, "2")
}

// A worker's answer with a large shared body goes out as its header and the
// body unjoined: the bytes on the wire are the whole frame all the same, and
// the handler's body is neither copied into a frame of its own nor changed.
func TestLargeWorkerAnswerIsTheWholeFrame(t *testing.T) {
	shared := bytes.Repeat([]byte("0123456789abcdef"), (sharedBodyWrite+100)/16)
	before := bytes.Clone(shared)
	server := startServer(t, ServerConfig{SlowWorkers: 1, SlowQueue: 4}, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = shared
			return resp
		}, Slow())
	})
	peer := dialRaw(t, server)
	for opaque := int32(1); opaque <= 3; opaque++ {
		req := NewRequest(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
		req.Opaque = opaque
		peer.send(req)
		want := NewResponse(req, SUCCESS, "")
		want.MarkResponse()
		want.Opaque, want.SerializeType, want.Body = opaque, req.SerializeType, shared
		if got := peer.readFrameBytes(); !bytes.Equal(got, mustEncode(t, want)) {
			t.Fatalf("answer %d: %d bytes, not the frame of %d bytes", opaque, len(got), len(mustEncode(t, want)))
		}
	}
	if !bytes.Equal(shared, before) {
		t.Fatal("the shared body changed")
	}
}

func TestAppendResponsePartsLeavesALargeBodyOut(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(*Server) {})
	shared := make([]byte, sharedBodyWrite)
	req := NewRequest(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
	resp := NewResponse(req, SUCCESS, "")
	resp.Body = shared
	frame, body := server.appendResponseParts(nil, &Conn{}, req, resp)
	if len(body) != len(shared) || &body[0] != &shared[0] || len(frame) > 512 {
		t.Fatalf("frame of %d bytes and a body of %d: the body must be left out, not copied", len(frame), len(body))
	}
	if got := int(binary.BigEndian.Uint32(frame)); got != len(frame)-4+len(shared) {
		t.Fatalf("length field %d, want %d", got, len(frame)-4+len(shared))
	}
	prefix := []byte("answers collected before")
	framed, body := server.appendResponseParts(bytes.Clone(prefix), &Conn{}, req, resp)
	if !bytes.Equal(framed[:len(prefix)], prefix) || len(body) != len(shared) {
		t.Fatalf("behind collected answers: prefix kept %v, body of %d bytes", bytes.Equal(framed[:len(prefix)], prefix), len(body))
	}
	if got, want := binary.BigEndian.Uint32(framed[len(prefix):]), uint32(len(frame)-4+len(shared)); got != want {
		t.Fatalf("behind collected answers: length field %d, want %d", got, want)
	}
	resp.Body = shared[:sharedBodyWrite-1] // below the size: one frame, as always
	if frame, body := server.appendResponseParts(nil, &Conn{}, req, resp); body != nil || len(frame) < sharedBodyWrite {
		t.Fatalf("a small body must be framed whole: %d + %d bytes", len(frame), len(body))
	}
}
