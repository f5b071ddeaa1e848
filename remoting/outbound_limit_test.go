package remoting

import (
	"bytes"
	"testing"
	"time"
)

// kibAnswer answers every request with a 1 KiB body.
func kibAnswer(_ *Conn, req *Command) *Command {
	resp := NewResponse(req, SUCCESS, "")
	resp.Body = bytes.Repeat([]byte{'a'}, 1024)
	return resp
}

// outboundTestServer has one event loop, so the pipeliner and the other
// peer share it, and small output bounds.
func outboundTestServer(t *testing.T) (*Server, chan uint64) {
	closed := make(chan uint64, 16)
	server := startServer(t, ServerConfig{NumEventLoops: 1, OutboundSoftLimit: 16 << 10, OutboundHardLimit: 256 << 10},
		func(s *Server) {
			s.Handle(GET_NAMESRV_CONFIG, kibAnswer)
			s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
			s.OnClose(func(c *Conn) { closed <- c.ID() })
		})
	return server, closed
}

// pipelined is n GET_NAMESRV_CONFIG requests in one byte string.
func pipelined(t *testing.T, n int) []byte { return pipelinedCode(t, GET_NAMESRV_CONFIG, n) }

// pipelinedCode is n requests of code, opaques 0 to n-1, in one byte string.
func pipelinedCode(t *testing.T, code int32, n int) []byte {
	var all []byte
	for i := range n {
		all = append(all, mustEncode(t, &Command{Code: code, Opaque: int32(i)})...)
	}
	return all
}

// expectRoutesAnswered sends 20 echo route queries on other, one at a
// time, and fails unless each is answered.
func expectRoutesAnswered(t *testing.T, other *rawConn) {
	t.Helper()
	for i := range 20 {
		other.send(&Command{Code: GET_ROUTEINFO_BY_TOPIC, Opaque: int32(i), ExtFields: map[string]string{"echo": "route"}})
		if resp := other.read(); resp.Opaque != int32(i) || resp.Remark != "route" {
			t.Fatalf("the other peer got %+v", resp)
		}
	}
}

// TestPipelinerThatNeverReadsIsClosed reproduces the unbounded output of
// issue 13: a client pipelining requests without reading made the answers
// pile up in the server without bound (here 20,000 answers of 1 KiB, 20 MB,
// for 1 MB of requests). Now its requests stay unread past the soft bound
// and the connection is closed past the hard one, while a peer on the same
// event loop keeps being answered.
func TestPipelinerThatNeverReadsIsClosed(t *testing.T) {
	server, closed := outboundTestServer(t)
	pipeliner := dialRaw(t, server)
	requests := pipelined(t, 20000)
	wrote := make(chan error, 1)
	go func() {
		_ = pipeliner.conn.SetWriteDeadline(time.Now().Add(waitLimit))
		_, err := pipeliner.conn.Write(requests)
		wrote <- err
	}()
	other := dialRaw(t, server)
	expectRoutesAnswered(t, other)
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatalf("the pipeliner was not closed (pauses %d)", server.OutboundPauses())
	}
	<-wrote // the write ends, with an error or not, once the server closed
	if server.OutboundPauses() == 0 || server.OutboundClosedConnections() != 1 {
		t.Fatalf("pauses %d, closed %d; want >0 and 1", server.OutboundPauses(), server.OutboundClosedConnections())
	}
	other.send(&Command{Code: GET_ROUTEINFO_BY_TOPIC, Opaque: 99, ExtFields: map[string]string{"echo": "after"}})
	if resp := other.read(); resp.Remark != "after" {
		t.Fatalf("after the close the other peer got %+v", resp)
	}
}

// TestPausedConnectionResumesWhenRead: a client that pipelines more answers
// than the soft bound, then reads, gets every answer in order.
func TestPausedConnectionResumesWhenRead(t *testing.T) {
	server, _ := outboundTestServer(t)
	peer := dialRaw(t, server)
	const n = 2000 // 2 MB of answers past a 16 KiB soft bound, 100 KB of requests below the hard one
	peer.write(pipelined(t, n))
	deadline := time.Now().Add(waitLimit)
	for server.OutboundPauses() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the connection was never paused")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for i := range n {
		if resp := peer.read(); resp.Opaque != int32(i) || len(resp.Body) != 1024 {
			t.Fatalf("answer %d: opaque %d, %d bytes", i, resp.Opaque, len(resp.Body))
		}
	}
	if got := server.OutboundClosedConnections(); got != 0 {
		t.Fatalf("%d connections closed, want none", got)
	}
}
