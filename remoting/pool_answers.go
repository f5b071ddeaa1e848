package remoting

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"
)

// DefaultOutboundMemoryFraction: the server-wide outbound budget defaults
// to this fraction of RequestMemoryLimit (1 GiB / 4 = 256 MiB).
const DefaultOutboundMemoryFraction = 4

// remarkOutboundBudget is the remark of a worker answer refused for the
// server-wide outbound budget; the code is SYSTEM_BUSY, as for a full pool.
const remarkOutboundBudget = "[OVERLOAD]system busy, start flow control for a while (outbound memory budget reached)"

// outboundFeedChunk is how much of the queued answers gnet's output buffer
// is given at a time, and how much it may hold before it is given more.
// gnet copies what the socket does not take into buffers rounded up to a
// power of two, per connection: 64 peers not reading a 4.7 MB topic list
// (one cached body, shared) held a copy of it each, 8 MiB apiece. Queued
// here, an answer is a reference to that one body; gnet holds at most two
// chunks of it for a peer that does not read.
const outboundFeedChunk = 64 << 10

// poolAnswer is one answer waiting for its connection's event loop: a
// worker's, or a large shared body answered on the loop.
type poolAnswer struct {
	frame, body []byte
	done        func()
	// sent is how much of frame and body gnet has been given; the loop
	// gives nothing else to the connection until the answer is whole.
	sent int
	// shared is the key of its body in the server's shared bodies, nil
	// when the body is counted with the answer (shared_bodies.go).
	shared *byte
}

// take returns the next at most limit bytes of the answer, how many, and
// whether the answer is then given whole.
func (a *poolAnswer) take(limit int) (iov [][]byte, n int, whole bool) {
	total := len(a.frame) + len(a.body)
	end := total
	if limit < total-a.sent {
		end = a.sent + limit
	}
	if a.sent < len(a.frame) {
		iov = append(iov, a.frame[a.sent:min(end, len(a.frame))])
	}
	if end > len(a.frame) {
		iov = append(iov, a.body[max(a.sent-len(a.frame), 0):end-len(a.frame)])
	}
	n, a.sent = end-a.sent, end
	return iov, n, end == total
}

// poolAnswerQueue holds a gnet connection's worker answers until its event
// loop writes them. Before it, gnet's AsyncWrite took every answer at once
// into an unbounded task queue and then into the output buffer, past the
// outbound limits (8 peers pipelining GET_NAMESRV_CONFIG and never reading
// took the server from 15 to 752 MiB). Now an answer is counted against the
// connection's hard limit and the server's outbound budget before it is
// queued, and the loop moves answers into gnet's buffer only while that is
// under the soft limit.
type poolAnswerQueue struct {
	mu    sync.Mutex
	items []poolAnswer
	// bytes is the size of items, changed under mu, read without it.
	bytes atomic.Int64
	// buffered mirrors gnet's OutboundBuffered as of the loop's last look,
	// for the workers and the budget (gnet's own count is the loop's alone).
	buffered atomic.Int64
	// wake is set when the loop is woken for output only: the callback is
	// not activity of the peer.
	wake atomic.Bool
	// listed says the connection is in the server's holding set.
	listed atomic.Bool
	// overflowed is set once the connection is being closed for the hard
	// limit: later answers are dropped, and not counted again.
	overflowed atomic.Bool
	// partial says the first answer is partly given to gnet; event loop only.
	partial bool
	// written is every byte the loop gave gnet for the connection, and
	// taken what of it the socket had taken at the last look (written less
	// gnet's buffer): no change means the peer read nothing meanwhile.
	// Event loop only.
	written, taken int64
	// progressAt is when taken last changed (Unix nanoseconds).
	progressAt int64
	// readOff says the socket's read interest is off (read_pause_linux.go).
	readOff bool
	// wakeAfter is when the ticker next wakes the connection (Unix
	// nanoseconds), wakeBackoff the wait it was set with, and wakeTaken
	// the socket's take at that look (paceWakes); the two last are event
	// loop only.
	wakeAfter   atomic.Int64
	wakeBackoff time.Duration
	wakeTaken   int64
	// poolRefusedAt is when a request of the connection was last answered
	// SYSTEM_BUSY for a full pool (Unix nanoseconds, 0: never); event loop only.
	poolRefusedAt int64
}

// queued is the bytes of the answers waiting in the queue.
func (q *poolAnswerQueue) queued() int64 { return q.bytes.Load() }

// held is what the connection holds of output: queued plus buffered.
func (q *poolAnswerQueue) held() int64 { return q.bytes.Load() + q.buffered.Load() }

// queuePoolAnswer hands a worker's answer (frame, then body when not nil)
// to conn's event loop; done runs once, after the write or its refusal.
// Past the server-wide budget the answer is replaced by a SYSTEM_BUSY one
// (refuse); past the connection's hard limit the connection is closed. A
// connection served outside gnet (TLS) is counted the same way and written
// by its own goroutine (tls_output.go).
func (s *Server) queuePoolAnswer(conn *Conn, request, response *Command, frame, body []byte, done func()) error {
	if conn.loop == nil {
		return s.queueNetAnswer(conn, request, frame, body, done)
	}
	size := int64(len(frame) + len(body))
	if !s.reserveOutput(conn, size, done) {
		return ErrConnectionClosed
	}
	answer := s.fitBudget(conn, request, frame, body)
	answer.done = done
	return s.enqueueOutput(conn, answer, size)
}

// reserveOutput counts size bytes of an answer against conn's hard limit
// before the answer counts against the server-wide budget, so that an
// answer about to be dropped never holds budget (16 workers answering a
// peer past its limit at once held 16 answers of it for a moment). Past
// the limit it closes conn (once) and runs done; closed, it runs done.
func (s *Server) reserveOutput(conn *Conn, size int64, done func()) bool {
	q := &conn.poolOut
	q.mu.Lock()
	if conn.closed.Load() || q.overflowed.Load() {
		q.mu.Unlock()
		done()
		return false
	}
	if held := q.held(); held+size > int64(s.cfg.OutboundHardLimit) {
		q.overflowed.Store(true)
		q.mu.Unlock()
		done()
		s.closeOverHardLimit(conn, held+size)
		return false
	}
	q.bytes.Add(size)
	q.mu.Unlock()
	return true
}

// enqueueOutput queues an answer (already counted in the server-wide
// total, chargeAnswer) for conn's event loop, or closes conn when it takes
// it past its hard limit; its done runs once, after the write or refusal.
// reserved is what reserveOutput counted for it (0: nothing yet).
func (s *Server) enqueueOutput(conn *Conn, answer poolAnswer, reserved int64) error {
	size := int64(len(answer.frame) + len(answer.body))
	q := &conn.poolOut
	q.mu.Lock()
	if conn.closed.Load() || (q.overflowed.Load() && reserved == 0) {
		q.bytes.Add(-reserved)
		q.mu.Unlock()
		s.unchargeAnswer(answer.frame, answer.body, answer.shared)
		answer.done()
		return ErrConnectionClosed
	}
	if held := q.held(); reserved == 0 && held+size > int64(s.cfg.OutboundHardLimit) {
		q.overflowed.Store(true)
		q.mu.Unlock()
		s.unchargeAnswer(answer.frame, answer.body, answer.shared)
		answer.done()
		s.closeOverHardLimit(conn, held+size)
		return ErrConnectionClosed
	}
	wasEmpty := len(q.items) == 0
	q.items = append(q.items, answer)
	q.bytes.Add(size - reserved)
	q.mu.Unlock()
	conn.touch(time.Now())
	s.listHolding(conn)
	if wasEmpty {
		q.wake.Store(true)
		_ = conn.gnetConn.Wake(nil)
	}
	return nil
}

// fitBudget counts a worker's answer against the server-wide budget, or
// past it replaces the answer by a SYSTEM_BUSY one, counted too (a small
// answer, bounded by the connection's hard limit); it returns what to
// queue (done left to the caller).
func (s *Server) fitBudget(conn *Conn, request *Command, frame, body []byte) poolAnswer {
	if key, ok := s.chargeAnswer(frame, body, true); ok {
		return poolAnswer{frame: frame, body: body, shared: key}
	}
	s.outbound.budgetRefused.Add(1)
	refusal := s.busy(conn, request, "", "outbound memory budget reached, answering SYSTEM_BUSY")
	refusal.Remark = remarkOutboundBudget
	frame = s.appendResponse(nil, conn, request, refusal)
	s.outbound.total.Add(int64(len(frame)))
	return poolAnswer{frame: frame}
}

// takeBudget counts size against the server-wide outbound budget, false
// (nothing counted) when it does not fit.
func (s *Server) takeBudget(size int64) bool {
	if s.outbound.total.Add(size) <= s.cfg.OutboundMemoryLimit {
		return true
	}
	s.outbound.total.Add(-size)
	return false
}

// closeOverHardLimit logs, counts and closes a connection holding more
// than the hard limit; it runs on any goroutine.
func (s *Server) closeOverHardLimit(conn *Conn, held int64) {
	s.outbound.closed.Add(1)
	s.outbound.log.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "heldBytes": held,
			"connectionOutboundHardLimit": s.cfg.OutboundHardLimit}
	}, "peer does not read its answers: closing the connection", time.Now())
	_ = conn.Close()
}

// drainPoolAnswers gives gnet conn's queued answers, outboundFeedChunk at
// a time, while gnet's output buffer holds less than that (all of them at
// once while the server drains, so that a shutdown never waits for a peer
// that does not read); it reports whether it gave any. It runs on the
// event loop.
func (s *Server) drainPoolAnswers(conn *Conn, gnetConn gnet.Conn) (gave bool) {
	q := &conn.poolOut
	limit := outboundFeedChunk
	if s.state.Load() != stateRunning {
		limit = int(^uint(0) >> 1)
	}
	for limit > outboundFeedChunk || gnetConn.OutboundBuffered() < outboundFeedChunk {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.mu.Unlock()
			return gave
		}
		iov, n, whole := q.items[0].take(limit)
		head := q.items[0]
		if whole {
			q.items[0] = poolAnswer{}
			q.items = q.items[1:]
		}
		q.bytes.Add(-int64(n))
		q.mu.Unlock()
		q.partial = !whole
		if len(iov) == 1 {
			s.writeOut(conn, gnetConn, iov[0], nil)
		} else {
			s.writeOut(conn, gnetConn, iov[0], iov[1])
		}
		gave = true
		s.noteBuffered(conn, gnetConn)
		if whole {
			s.unchargeAnswer(head.frame, head.body, head.shared)
			head.done()
		}
	}
	return gave
}

// queueLoopAnswer queues an answer built on the event loop whose body is
// large and shared (a cached list), behind conn's other queued answers, so
// that gnet is given it a chunk at a time too; what the loop collected
// before it (out) goes out first. header is copied: it lives in the loop's
// buffer. It runs on the event loop.
func (s *Server) queueLoopAnswer(conn *Conn, gnetConn gnet.Conn, out, header, body []byte) {
	if len(out) > 0 {
		s.writeOut(conn, gnetConn, out, nil)
	}
	header = bytes.Clone(header)
	key, _ := s.chargeAnswer(header, body, false) // counted, not refused: the peer's own request, bounded by its soft limit
	q := &conn.poolOut
	q.mu.Lock()
	q.items = append(q.items, poolAnswer{frame: header, body: body, shared: key, done: func() {}})
	q.bytes.Add(int64(len(header) + len(body)))
	q.mu.Unlock()
	s.listHolding(conn)
	s.drainPoolAnswers(conn, gnetConn)
}

// noteBuffered updates conn's mirror of gnet's output buffer and the
// server-wide total, and keeps conn in the set the ticker looks at while
// it holds output. A paused connection's unread requests count too: gnet
// goes on reading its socket, and those bytes are held for its output
// (16 peers pipelining without reading held 32 MiB of requests each). It
// runs on the event loop.
func (s *Server) noteBuffered(conn *Conn, gnetConn gnet.Conn) {
	now := int64(gnetConn.OutboundBuffered())
	if conn.outputPaused {
		now += int64(gnetConn.InboundBuffered())
	}
	if old := conn.poolOut.buffered.Swap(now); old != now {
		s.outbound.total.Add(now - old)
	}
	if now > 0 {
		s.listHolding(conn)
	} else if conn.poolOut.listed.Load() && conn.poolOut.held() == 0 {
		conn.poolOut.listed.Store(false)
		s.outbound.holding.Delete(conn.id)
	}
}

// listHolding puts conn in the set of connections holding output.
func (s *Server) listHolding(conn *Conn) {
	if !conn.poolOut.listed.Load() {
		conn.poolOut.listed.Store(true)
		s.outbound.holding.Store(conn.id, conn)
	}
}

// dropPoolAnswers forgets a closed connection's output: its queued answers
// (their done called) and its share of the total. It runs on the event loop
// after conn.closed is set.
func (s *Server) dropPoolAnswers(conn *Conn) {
	q := &conn.poolOut
	q.mu.Lock()
	items := q.items
	q.items = nil
	var remaining int64 // what the items still count; reservations of answers in the making are their owners' to undo
	for _, item := range items {
		remaining += int64(len(item.frame) + len(item.body) - item.sent)
	}
	q.bytes.Add(-remaining)
	q.mu.Unlock()
	s.outbound.total.Add(-q.buffered.Swap(0))
	s.outbound.holding.Delete(conn.id)
	for _, item := range items {
		s.unchargeAnswer(item.frame, item.body, item.shared)
		item.done()
	}
}

// wakeHolding asks the loop of every connection holding output to look at
// it again: gnet calls no handler when a peer reads, and the mirror of its
// buffer, which the budget counts, must follow.
func (s *Server) wakeHolding(now int64) {
	s.outbound.holding.Range(func(_, value any) bool {
		conn := value.(*Conn)
		if conn.poolOut.wakeAfter.Load() > now {
			return true // stuck: looked at less often (paceWakes)
		}
		conn.poolOut.wake.Store(true)
		_ = conn.gnetConn.Wake(nil)
		return true
	})
}

// OutboundMemoryLimit is the server-wide outbound budget in force.
func (s *Server) OutboundMemoryLimit() int64 { return s.cfg.OutboundMemoryLimit }

// OutboundHeldBytes is the output all connections hold now: worker answers
// queued plus gnet's output buffers as last seen, against OutboundMemoryLimit.
func (s *Server) OutboundHeldBytes() int64 { return s.outbound.total.Load() }

// OutboundBudgetRefusals counts the worker answers replaced by SYSTEM_BUSY
// because the server-wide outbound budget was reached, since start.
func (s *Server) OutboundBudgetRefusals() uint64 { return s.outbound.budgetRefused.Load() }
