package remoting

import (
	"strconv"
	"testing"
)

// seqHandler answers with the request's arrival number as the remark.
func seqHandler(_ *Conn, req *Command) *Command {
	return NewResponse(req, SUCCESS, strconv.FormatUint(req.ArrivalSeq(), 10))
}

// Requests are numbered per connection in the order they arrived, whether
// their handler runs on the event loop or on the pool, and a new
// connection counts from 1 again.
func TestArrivalSeqCountsRequestsPerConnection(t *testing.T) {
	const loopCode, poolCode = 7001, 7002
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(loopCode, seqHandler)
		s.Handle(poolCode, seqHandler, Slow())
	})
	first := dialRaw(t, server)
	codes := []int32{poolCode, loopCode, poolCode, loopCode, loopCode}
	var pipelined []byte
	for i, code := range codes {
		req := NewRequest(code, nil, nil)
		req.Opaque = int32(i + 1)
		pipelined = append(pipelined, mustEncode(t, req)...)
	}
	first.write(pipelined) // one write: several frames decoded in one callback
	for range codes {
		resp := first.read()
		if want := strconv.Itoa(int(resp.Opaque)); resp.Remark != want {
			t.Fatalf("request %d (code %d) numbered %q, want %s", resp.Opaque, codes[resp.Opaque-1], resp.Remark, want)
		}
	}
	second := dialRaw(t, server)
	req := NewRequest(poolCode, nil, nil)
	req.Opaque = 1
	second.send(req)
	if resp := second.read(); resp.Remark != "1" {
		t.Fatalf("first request of a new connection numbered %q, want 1", resp.Remark)
	}
	if cmd := NewRequest(loopCode, nil, nil); cmd.ArrivalSeq() != 0 {
		t.Fatalf("a command built locally has arrival %d, want 0", cmd.ArrivalSeq())
	}
}
