package remoting

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// bigAnswerBody is the 256 KiB body of the tests' large answers: written as
// header plus body, as the cached list answers are.
var bigAnswerBody = bytes.Repeat([]byte{'t'}, 256<<10)

// poolAnswerServer runs GET_ALL_TOPIC_LIST_FROM_NAMESERVER on a worker with
// a 256 KiB answer of its own each time (a shared one would count once
// against the budget), counting the calls, with small socket buffers so that
// the kernel holds little of what a peer does not read. The handler waits
// for release: a test lets every request reach the pool first, as happens
// when they arrive in one read, so that no answer can pause the connection
// before all its requests are taken.
func poolAnswerServer(t *testing.T, cfg ServerConfig, calls *atomic.Int64, closed chan uint64, release chan struct{}) *Server {
	cfg.NumEventLoops, cfg.SocketSendBuffer, cfg.SlowQueue = 1, 16<<10, 1000
	return startServer(t, cfg, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			<-release
			calls.Add(1)
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = bytes.Clone(bigAnswerBody)
			return resp
		}, Slow())
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
		if closed != nil {
			s.OnClose(func(c *Conn) { closed <- c.ID() })
		}
	})
}

// dialSmallWindow dials with a small receive buffer, so a peer that does not
// read leaves the answers in the server.
func dialSmallWindow(t *testing.T, server *Server) *rawConn {
	t.Helper()
	peer := dialRaw(t, server)
	_ = peer.conn.(*net.TCPConn).SetReadBuffer(16 << 10)
	return peer
}

// waitOnPools waits until the server's connections have n requests on the
// pools together.
func waitOnPools(t *testing.T, server *Server, n int32) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		var on int32
		server.conns.Range(func(_, value any) bool {
			on += value.(*Conn).onPools.Load()
			return true
		})
		if on >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d requests on the pools", on, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// waitOutboundReleased waits until the server holds no output at all
// (after says when that is due, for the failure).
func waitOutboundReleased(t *testing.T, server *Server, after string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for server.OutboundHeldBytes() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still held %s", server.OutboundHeldBytes(), after)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPoolAnswersToNonReaderCloseAtHardLimit: 100 worker answers of 256 KiB
// (25 MiB) to a peer that pipelined them in one write and never reads. The
// worker answers went past the outbound limits into gnet's buffer, and the
// connection, never paused since its requests were all read at once, was
// never looked at again: it stayed open holding all of them. Now each answer
// counts against the hard limit (2 MiB) before it is queued, the connection
// is closed there, what it held is released, and a peer on the same loop is
// answered throughout.
func TestPoolAnswersToNonReaderCloseAtHardLimit(t *testing.T) {
	var calls atomic.Int64
	closed := make(chan uint64, 4)
	release := make(chan struct{})
	server := poolAnswerServer(t, ServerConfig{OutboundSoftLimit: 64 << 10, OutboundHardLimit: 2 << 20}, &calls, closed, release)
	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the held output, sampled: it must never pass the hard limit by more than one answer
		defer close(sampled)
		for {
			if held := server.OutboundHeldBytes(); held > peak.Load() {
				peak.Store(held)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	pipeliner := dialSmallWindow(t, server)
	pipeliner.write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 100))
	waitOnPools(t, server, 100)
	close(release)
	other := dialRaw(t, server)
	expectRoutesAnswered(t, other)
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatalf("the peer that never reads was not closed (%d answers made, closed %d)", calls.Load(), server.OutboundClosedConnections())
	}
	waitOutboundReleased(t, server, "after the close")
	close(stop)
	<-sampled
	if limit := int64(2<<20 + len(bigAnswerBody) + 1024); peak.Load() > limit {
		t.Fatalf("held %d bytes at the peak, past the hard limit plus one answer (%d)", peak.Load(), limit)
	}
	if server.OutboundClosedConnections() != 1 {
		t.Fatalf("closed %d connections for the hard limit, want 1", server.OutboundClosedConnections())
	}
	other.send(&Command{Code: GET_ROUTEINFO_BY_TOPIC, Opaque: 99, ExtFields: map[string]string{"echo": "after"}})
	if resp := other.read(); resp.Remark != "after" {
		t.Fatalf("after the close the other peer got %+v", resp)
	}
}

// TestOutboundBudgetHoldsAcrossConnections: 4 peers each pipeline 10 worker
// answers of 256 KiB (10 MiB in all) and read nothing until every answer is
// made; each stays under its own hard limit (8 MiB), but the server-wide
// budget is 2 MiB. The answers past it are SYSTEM_BUSY with the budget's
// remark, every request is answered, and once the peers have read, the
// budget is free again. Before, all 40 were queued (SUCCESS).
func TestOutboundBudgetHoldsAcrossConnections(t *testing.T) {
	var calls atomic.Int64
	release := make(chan struct{})
	// A connection is paused while an answer is partly given to gnet, and
	// past the budget a paused one whose peer reads nothing for
	// OutboundStuckAfter is closed (outputOverflow; its own test below).
	// The peers here are read one after the other, so the last ones wait
	// on the first: under load (nice -n 10 beside a build) that passed
	// 100 ms and closed one mid-answer. This test is about the refusals
	// alone, so that close is put out of its reach.
	server := poolAnswerServer(t, ServerConfig{OutboundSoftLimit: 4 << 20, OutboundHardLimit: 8 << 20,
		OutboundMemoryLimit: 2 << 20, OutboundStuckAfter: time.Hour}, &calls, nil, release)
	const peers, each = 4, 10
	conns := make([]*rawConn, peers)
	for i := range conns {
		conns[i] = dialSmallWindow(t, server)
		conns[i].write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, each))
	}
	waitOnPools(t, server, peers*each)
	close(release)
	deadline := time.Now().Add(waitLimit)
	for calls.Load() < peers*each {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d answers made", calls.Load(), peers*each)
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // the last answers reach their queues
	var ok, busy int
	for _, peer := range conns {
		answered, refused := readBudgetAnswers(t, peer, each)
		ok, busy = ok+answered, busy+refused
	}
	if busy == 0 || ok == 0 || uint64(busy) != server.OutboundBudgetRefusals() {
		t.Fatalf("%d answered, %d refused for the budget (counted %d): want both, counted alike", ok, busy, server.OutboundBudgetRefusals())
	}
	if server.OutboundClosedConnections() != 0 {
		t.Fatalf("%d connections closed, want none", server.OutboundClosedConnections())
	}
	conns[0].write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 1))
	if resp := conns[0].read(); resp.Code != SUCCESS {
		t.Fatalf("after the peers read: code %d %q, want SUCCESS", resp.Code, resp.Remark)
	}
}

// TestStuckNonReaderPastBudgetIsClosed: loop answers are counted against
// the server-wide budget but never refused (each is the peer's own request,
// bounded by its soft limit), so a peer that pipelines them and never reads
// takes the server past the budget; once its socket has taken nothing for
// OutboundStuckAfter it is closed, what it held is released, and a peer on
// the same loop is answered throughout.
func TestStuckNonReaderPastBudgetIsClosed(t *testing.T) {
	server := bigLoopAnswerServer(t, ServerConfig{OutboundSoftLimit: 8 << 20, OutboundHardLimit: 64 << 20,
		OutboundMemoryLimit: 128 << 10, OutboundStuckAfter: 20 * time.Millisecond})
	stuck := dialSmallWindow(t, server)
	stuck.write(pipelinedCode(t, GET_BROKER_CLUSTER_INFO, 8))
	other := dialRaw(t, server)
	expectRoutesAnswered(t, other)
	deadline := time.Now().Add(waitLimit)
	for server.OutboundClosedConnections() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("a non-reader holding %d bytes past the %d budget was not closed", server.OutboundHeldBytes(), server.OutboundMemoryLimit())
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = stuck.conn.SetReadDeadline(time.Now().Add(waitLimit))
	// EOF, or a reset when requests were left unread in the server's socket.
	if _, err := io.Copy(io.Discard, stuck.conn); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the stuck peer's connection stayed open")
	}
	waitOutboundReleased(t, server, "after the close")
	if n := server.OutboundClosedConnections(); n != 1 {
		t.Fatalf("closed %d connections, want the stuck one only", n)
	}
	expectRoutesAnswered(t, other)
}

// readBudgetAnswers reads n answers of bigAnswerBody, each SUCCESS or
// refused for the outbound budget, and counts them.
func readBudgetAnswers(t *testing.T, peer *rawConn, n int) (ok, busy int) {
	t.Helper()
	for range n {
		switch resp := peer.read(); {
		case resp.Code == SUCCESS && len(resp.Body) == len(bigAnswerBody):
			ok++
		case resp.Code == SYSTEM_BUSY && resp.Remark == remarkOutboundBudget:
			busy++
		default:
			t.Fatalf("answer %d: code %d remark %q, %d bytes", resp.Opaque, resp.Code, resp.Remark, len(resp.Body))
		}
	}
	return ok, busy
}

// TestPoolAnswerTakeSplitsFrameAndBody: an answer is given out in pieces
// that follow on from each other, frame first, and says when it is whole.
func TestPoolAnswerTakeSplitsFrameAndBody(t *testing.T) {
	a := poolAnswer{frame: []byte("head"), body: []byte("0123456789")}
	var got []byte
	for _, limit := range []int{3, 3, 5, 100} {
		iov, n, whole := a.take(limit)
		size := 0
		for _, piece := range iov {
			got = append(got, piece...)
			size += len(piece)
		}
		if size != n || n > limit {
			t.Fatalf("take(%d) gave %d bytes, said %d", limit, size, n)
		}
		if whole != (len(got) == 14) {
			t.Fatalf("take(%d): whole %v after %q", limit, whole, got)
		}
	}
	if string(got) != "head0123456789" {
		t.Fatalf("pieces joined to %q", got)
	}
}

// nonReaderOfLoopAnswers starts bigLoopAnswerServer (soft limit 8 MiB),
// has a peer with a small window pipeline n large loop answers without
// reading, and waits until the server's connection for it satisfies ready
// (what, in the failure, says what did not happen).
func nonReaderOfLoopAnswers(t *testing.T, n int, what string, ready func(*Conn) bool) (*Server, *rawConn, *Conn) {
	t.Helper()
	server := bigLoopAnswerServer(t, ServerConfig{OutboundSoftLimit: 8 << 20, OutboundHardLimit: 64 << 20})
	peer := dialSmallWindow(t, server)
	peer.write(pipelinedCode(t, GET_BROKER_CLUSTER_INFO, n))
	deadline := time.Now().Add(waitLimit)
	var conn *Conn
	for conn == nil || !ready(conn) {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		server.conns.Range(func(_, value any) bool { conn = value.(*Conn); return false })
		time.Sleep(time.Millisecond)
	}
	return server, peer, conn
}

// bigLoopAnswerServer answers GET_BROKER_CLUSTER_INFO on the event loop and
// GET_ALL_TOPIC_LIST_FROM_NAMESERVER on a worker, both with the shared
// 256 KiB body, and echoes route queries, with a small socket send buffer.
func bigLoopAnswerServer(t *testing.T, cfg ServerConfig) *Server {
	cfg.NumEventLoops, cfg.SocketSendBuffer = 1, 16<<10
	big := func(_ *Conn, req *Command) *Command {
		resp := NewResponse(req, SUCCESS, "")
		resp.Body = bigAnswerBody
		return resp
	}
	return startServer(t, cfg, func(s *Server) {
		s.Handle(GET_BROKER_CLUSTER_INFO, big)
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, big, Slow())
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
	})
}

// TestLargeAnswersGivenInChunksStayWhole: worker answers, large shared
// answers of the loop and small loop answers, pipelined together to a peer
// that reads slowly, each arrive whole and intact: gnet is given a large
// answer a chunk at a time and nothing else until it is whole.
func TestLargeAnswersGivenInChunksStayWhole(t *testing.T) {
	server := bigLoopAnswerServer(t, ServerConfig{OutboundSoftLimit: 512 << 10, OutboundHardLimit: 64 << 20})
	peer := dialSmallWindow(t, server)
	codes := []int32{GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_ROUTEINFO_BY_TOPIC, GET_BROKER_CLUSTER_INFO}
	var requests []byte
	const n = 60
	for i := range n {
		requests = append(requests, mustEncode(t, &Command{Code: codes[i%3], Opaque: int32(i), ExtFields: map[string]string{"echo": "small"}})...)
	}
	peer.write(requests)
	seen := map[int32]bool{}
	for range n {
		resp := peer.read()
		switch codes[resp.Opaque%3] {
		case GET_ROUTEINFO_BY_TOPIC:
			if resp.Remark != "small" {
				t.Fatalf("answer %d: %+v", resp.Opaque, resp)
			}
		default:
			if resp.Code != SUCCESS || !bytes.Equal(resp.Body, bigAnswerBody) {
				t.Fatalf("answer %d: code %d, %d bytes", resp.Opaque, resp.Code, len(resp.Body))
			}
		}
		seen[resp.Opaque] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct answers of %d", len(seen), n)
	}
	waitOutboundReleased(t, server, "once every answer was read")
}

// TestNonReaderOfLargeLoopAnswersHoldsLittleInGnet: a peer pipelines 40
// large shared loop answers (10 MiB) under a soft limit of 8 MiB and never
// reads. Before, each answer was copied into gnet's output buffer until the
// soft limit (8 MiB held for one peer); now one waits as a reference, the
// other requests stay unread, and gnet holds at most outboundCopyLimit and
// a chunk or two for it.
func TestNonReaderOfLargeLoopAnswersHoldsLittleInGnet(t *testing.T) {
	server, _, conn := nonReaderOfLoopAnswers(t, 40, "gnet never held output for the peer", func(conn *Conn) bool {
		return conn.poolOut.buffered.Load() > 0
	})
	time.Sleep(100 * time.Millisecond) // ten looks of the ticker: what gnet is given meanwhile stays given
	if buffered := conn.poolOut.buffered.Load(); buffered > outboundCopyLimit+2*outboundFeedChunk {
		t.Fatalf("gnet holds %d bytes for the peer, past %d", buffered, outboundCopyLimit+2*outboundFeedChunk)
	}
	if queued := conn.poolOut.queued(); queued > int64(len(bigAnswerBody)+1024) {
		t.Fatalf("%d bytes queued, want one answer at most: the other requests stay unread", queued)
	}
	if server.OutboundPauses() == 0 {
		t.Fatal("the peer was never paused")
	}
}

// TestSendDuringALargeAnswerKeepsFramesWhole: pushes sent to a peer while
// large answers are being given to gnet a chunk at a time go through the
// same queue, so they never land inside an answer.
func TestSendDuringALargeAnswerKeepsFramesWhole(t *testing.T) {
	server, peer, conn := nonReaderOfLoopAnswers(t, 20, "the connection never held output", func(conn *Conn) bool {
		return conn.poolOut.listed.Load()
	})
	for i := range 10 {
		push := NewRequest(NOTIFY_MIN_BROKER_ID_CHANGE, map[string]string{"minBrokerId": "0"}, nil)
		push.MarkOneway()
		push.Opaque = int32(1000 + i)
		if err := server.Send(conn, push); err != nil {
			t.Fatal(err)
		}
	}
	var answers, pushes int
	for answers+pushes < 30 {
		switch resp := peer.read(); {
		case resp.Code == NOTIFY_MIN_BROKER_ID_CHANGE && resp.IsOneway():
			pushes++
		case resp.Code == SUCCESS && bytes.Equal(resp.Body, bigAnswerBody):
			answers++
		default:
			t.Fatalf("frame %d: code %d, %d bytes", resp.Opaque, resp.Code, len(resp.Body))
		}
	}
}

// TestStuckNonReadersPastTheBudgetAreClosed: 6 peers each pipeline large
// loop answers and never read, against a 512 KiB budget. Each holds far
// less than its soft limit (a queued answer and what gnet was given), so
// before only the budget's refusals of worker answers bounded them, and
// loop answers are never refused: they stayed open, holding more than the
// budget together. Now a paused connection past the budget whose peer
// read nothing for 100 ms is closed, until the rest fit.
func TestStuckNonReadersPastTheBudgetAreClosed(t *testing.T) {
	closed := make(chan uint64, 16)
	server := startServer(t, ServerConfig{NumEventLoops: 1, SocketSendBuffer: 16 << 10, OutboundSoftLimit: 8 << 20,
		OutboundHardLimit: 64 << 20, OutboundMemoryLimit: 512 << 10}, func(s *Server) {
		s.Handle(GET_BROKER_CLUSTER_INFO, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = bigAnswerBody
			return resp
		})
		s.OnClose(func(c *Conn) { closed <- c.ID() })
	})
	for range 6 {
		dialSmallWindow(t, server).write(pipelinedCode(t, GET_BROKER_CLUSTER_INFO, 20))
	}
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatalf("no stuck peer closed (held %d against 512 KiB)", server.OutboundHeldBytes())
	}
	deadline := time.Now().Add(waitLimit)
	for server.OutboundHeldBytes() > 512<<10 {
		if time.Now().After(deadline) {
			t.Fatalf("still %d bytes held against 512 KiB", server.OutboundHeldBytes())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if server.OutboundClosedConnections() == 0 || server.OutboundClosedConnections() == 6 {
		t.Fatalf("closed %d of 6, want some and not all", server.OutboundClosedConnections())
	}
}

// TestSharedBodyCountsOnceAgainstTheBudget: 8 peers each have 4 worker
// answers of one shared 256 KiB body (8 MiB if counted per answer) made at
// once against a 2 MiB budget. Before, each queued answer counted its body
// in full, and the answers past 2 MiB were SYSTEM_BUSY though the body
// exists once; now it counts once, every answer is SUCCESS, and nothing
// stays counted once they are read.
func TestSharedBodyCountsOnceAgainstTheBudget(t *testing.T) {
	release := make(chan struct{})
	server := startServer(t, ServerConfig{NumEventLoops: 1, OutboundSoftLimit: 8 << 20, OutboundHardLimit: 64 << 20,
		OutboundMemoryLimit: 2 << 20, SlowQueue: 1000}, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			<-release
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = bigAnswerBody
			return resp
		}, Slow())
	})
	peers := make([]*rawConn, 8)
	for i := range peers {
		peers[i] = dialRaw(t, server)
		peers[i].write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 4))
	}
	waitOnPools(t, server, 32)
	close(release)
	for _, peer := range peers {
		if ok, busy := readBudgetAnswers(t, peer, 4); busy != 0 {
			t.Fatalf("%d answered, %d refused for the budget; want none refused", ok, busy)
		}
	}
	waitOutboundReleased(t, server, "once every answer was read")
}
