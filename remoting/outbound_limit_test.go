package remoting

import (
	"bytes"
	"net"
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

// TestPipelinerThatNeverReadsIsNoLongerRead reproduces the unbounded
// output of issue 13 and the unbounded input of issue 21: a client
// pipelining requests without reading made the answers pile up in the
// server, and once its requests were left unread gnet went on reading them
// into memory up to the hard limit. Now past the soft bound the server
// stops reading its socket: the client's own write blocks (8 MB of
// requests do not fit the 64 KiB socket buffers and the server's soft
// bound), the server holds less than the hard bound for it, nothing is
// closed, and a peer on the same event loop keeps being answered.
func TestPipelinerThatNeverReadsIsNoLongerRead(t *testing.T) {
	server := startServer(t, ServerConfig{NumEventLoops: 1, OutboundSoftLimit: 16 << 10, OutboundHardLimit: 256 << 10,
		SocketRecvBuffer: 64 << 10, SocketSendBuffer: 64 << 10},
		func(s *Server) {
			s.Handle(GET_NAMESRV_CONFIG, kibAnswer)
			s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
		})
	pipeliner := dialRaw(t, server)
	_ = pipeliner.conn.(*net.TCPConn).SetWriteBuffer(64 << 10)
	requests := pipelined(t, 20000)
	for len(requests) < 8<<20 {
		requests = append(requests, requests...)
	}
	wrote := make(chan int, 1)
	go func() {
		_ = pipeliner.conn.SetWriteDeadline(time.Now().Add(2 * time.Second)) // 8 MB take milliseconds when read
		n, _ := pipeliner.conn.Write(requests)
		wrote <- n
	}()
	other := dialRaw(t, server)
	expectRoutesAnswered(t, other)
	if n := <-wrote; n >= len(requests) {
		t.Fatalf("the server read all %d bytes of a peer that reads nothing (pauses %d)", n, server.OutboundPauses())
	}
	if server.OutboundPauses() == 0 || server.OutboundClosedConnections() != 0 {
		t.Fatalf("pauses %d, closed %d; want >0 and 0", server.OutboundPauses(), server.OutboundClosedConnections())
	}
	if held := server.OutboundHeldBytes(); held >= 256<<10 {
		t.Fatalf("the server holds %d bytes for the peer, want less than the 256 KiB hard bound", held)
	}
	other.send(&Command{Code: GET_ROUTEINFO_BY_TOPIC, Opaque: 99, ExtFields: map[string]string{"echo": "after"}})
	if resp := other.read(); resp.Remark != "after" {
		t.Fatalf("after the pause the other peer got %+v", resp)
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

// TestPoolRefusalSlowsThePeer: a peer pipelines 200 requests into a pool of
// one worker and one queue slot, the worker held. Before, the event loop
// answered SYSTEM_BUSY to all the rest at once, and a peer that pipelines
// without end kept the loop doing only that. Now after a refusal for a full
// pool the connection's next requests wait for the next look (it is paused),
// every request is still answered, and another peer is answered meanwhile.
func TestPoolRefusalSlowsThePeer(t *testing.T) {
	release := make(chan struct{})
	server := startServer(t, ServerConfig{NumEventLoops: 1, SlowWorkers: 1, SlowQueue: 1}, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			<-release
			return NewResponse(req, SUCCESS, "")
		}, Slow())
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
	})
	peer := dialRaw(t, server)
	peer.write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 200))
	deadline := time.Now().Add(waitLimit)
	for server.OutboundPauses() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the refused peer was never paused")
		}
		time.Sleep(time.Millisecond)
	}
	expectRoutesAnswered(t, dialRaw(t, server))
	close(release)
	var ok, busy int
	for range 200 {
		switch resp := peer.read(); resp.Code {
		case SUCCESS:
			ok++
		case SYSTEM_BUSY:
			busy++
		default:
			t.Fatalf("answer %d: code %d", resp.Opaque, resp.Code)
		}
	}
	if ok == 0 || busy == 0 {
		t.Fatalf("%d answered, %d refused; want both", ok, busy)
	}
}

// TestStuckPeerIsLookedAtLessOften: a peer that pipelines large answers and
// reads nothing is looked at less and less often by the ticker (at first
// every 10 ms; 5,000 of them would keep the event loops busy with wakes),
// and once it reads it still gets every answer.
func TestStuckPeerIsLookedAtLessOften(t *testing.T) {
	_, peer, _ := nonReaderOfLoopAnswers(t, 40, "the stuck peer is still looked at every few milliseconds", func(conn *Conn) bool {
		return time.Until(time.Unix(0, conn.poolOut.wakeAfter.Load())) >= 100*time.Millisecond
	})
	for i := range 40 {
		if resp := peer.read(); resp.Opaque != int32(i) || !bytes.Equal(resp.Body, bigAnswerBody) {
			t.Fatalf("answer %d: opaque %d, %d bytes", i, resp.Opaque, len(resp.Body))
		}
	}
}
