package remoting

import (
	"bytes"
	"testing"
	"time"
)

func TestIdleScanPeriod(t *testing.T) {
	cases := []struct{ timeout, want time.Duration }{
		{120 * time.Second, time.Second},
		{2 * time.Second, 500 * time.Millisecond},
		{20 * time.Millisecond, 10 * time.Millisecond},
	}
	for _, tc := range cases {
		if got := idleScanPeriod(tc.timeout); got != tc.want {
			t.Errorf("idleScanPeriod(%v) = %v, want %v", tc.timeout, got, tc.want)
		}
	}
}

// An answer with a large shared body, answered on the event loop, goes out
// as its header and the body unjoined, behind the answers collected before
// it: the bytes on the wire are every frame whole and in order, and the
// shared body is not changed.
func TestLoopAnswerWithALargeSharedBodyKeepsItsPlace(t *testing.T) {
	shared := bytes.Repeat([]byte("0123456789abcdef"), (sharedBodyWrite+100)/16)
	before := bytes.Clone(shared)
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(GET_KV_CONFIG, echoHandler)
		s.Handle(GET_BROKER_CLUSTER_INFO, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = shared
			return resp
		})
	})
	peer := dialRaw(t, server)
	var pipelined []byte
	var want [][]byte
	for opaque := int32(1); opaque <= 6; opaque++ {
		code, body := int32(GET_KV_CONFIG), []byte("small")
		if opaque%2 == 0 {
			code, body = GET_BROKER_CLUSTER_INFO, nil
		}
		req := NewRequest(code, nil, body)
		req.Opaque = opaque
		pipelined = append(pipelined, mustEncode(t, req)...)
		answer := NewResponse(req, SUCCESS, "")
		answer.MarkResponse()
		answer.Opaque, answer.SerializeType, answer.Body = opaque, req.SerializeType, body
		if code == GET_BROKER_CLUSTER_INFO {
			answer.Body = shared
		}
		want = append(want, mustEncode(t, answer))
	}
	peer.write(pipelined) // one write: the answers are collected in one callback
	for i, frame := range want {
		if got := peer.readFrameBytes(); !bytes.Equal(got, frame) {
			t.Fatalf("answer %d: %d bytes, want the frame of %d bytes", i+1, len(got), len(frame))
		}
	}
	if !bytes.Equal(shared, before) {
		t.Fatal("the shared body changed")
	}
}
