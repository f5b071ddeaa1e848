package remoting

import (
	"bytes"
	"strconv"
	"sync"
	"testing"
)

// TestLentAnswerBodiesArriveIntactAndTheBuffersComeBack: a handler builds
// every answer in a lent buffer; 200 pipelined requests, on the event loop
// and on the worker pool, each get their own body, and the buffers are
// reused instead of allocated once per answer.
func TestLentAnswerBodiesArriveIntactAndTheBuffersComeBack(t *testing.T) {
	for _, slow := range []bool{false, true} {
		t.Run("slow="+strconv.FormatBool(slow), func(t *testing.T) {
			var buffers AnswerBuffers
			var mu sync.Mutex // the answers' arrival orders nothing for the race detector
			lent, distinct := 0, map[*[]byte]bool{}
			handler := func(_ *Conn, req *Command) *Command {
				buf := buffers.Lend()
				mu.Lock()
				lent++
				distinct[buf] = true
				mu.Unlock()
				body := append(*buf, bytes.Repeat([]byte(req.ExtFields["n"]+";"), 300)...)
				resp := NewResponse(req, SUCCESS, "")
				resp.SetLentBody(body, buf, &buffers)
				return resp
			}
			server := startServer(t, ServerConfig{}, func(s *Server) {
				var opts []HandleOption
				if slow {
					opts = append(opts, Slow())
				}
				s.Handle(GET_ROUTEINFO_BY_TOPIC, handler, opts...)
			})
			peer := dialRaw(t, server)
			const requests = 200
			var stream []byte
			for i := range requests {
				req := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"n": strconv.Itoa(i)}, nil)
				req.Opaque = int32(i)
				stream = append(stream, mustEncode(t, req)...)
			}
			peer.write(stream)
			for range requests {
				resp := peer.read()
				want := bytes.Repeat([]byte(strconv.Itoa(int(resp.Opaque))+";"), 300)
				if !bytes.Equal(resp.Body, want) {
					t.Fatalf("answer %d: body %.40q..., want %.40q...", resp.Opaque, resp.Body, want)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			// sync.Pool may drop buffers (at a collection; a quarter of them
			// under the race detector), so "reused" is "far fewer buffers
			// than answers", not exactly one.
			if len(distinct) > lent/2 {
				t.Fatalf("%d distinct buffers for %d answers: the lent buffers did not come back", len(distinct), lent)
			}
		})
	}
}

func TestReturnLentBodyKeepsNoHugeBuffer(t *testing.T) {
	var buffers AnswerBuffers
	buf := buffers.Lend()
	huge := append(*buf, make([]byte, maxLentAnswerBuffer+1)...)
	cmd := &Command{}
	cmd.SetLentBody(huge, buf, &buffers)
	cmd.returnLentBody()
	if cmd.Body != nil {
		t.Fatal("Body kept after its buffer went back")
	}
	if again := buffers.Lend(); again == buf {
		t.Fatal("a buffer over the limit was taken back")
	}
	(&Command{Body: []byte("x")}).returnLentBody() // not lent: nothing happens
}
