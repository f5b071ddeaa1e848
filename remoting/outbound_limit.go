package remoting

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"
)

// Defaults of the per-connection output bounds. A client that pipelines
// requests and never reads made its answers pile up in gnet's output buffer
// (6 MB of GET_NAMESRV_CONFIG requests grew the server by 320 MB in 6 s).
// Past the soft bound the connection's further requests are left unread;
// gnet keeps reading the socket, so what such a peer goes on sending is
// held too, and past the hard bound (answers waiting plus requests unread)
// the connection is closed. The hard bound holds the soft one, an answer of
// the largest frame (16 MiB) and 12 MiB of requests more; gnet's buffers
// grow by doubling, so such a connection holds at most about twice that.
const (
	DefaultOutboundSoftLimit = 4 << 20
	DefaultOutboundHardLimit = 32 << 20
)

// errReadPauseUnsupported: connections cannot stop being read with this
// gnet or on this system (read_pause_linux.go).
var errReadPauseUnsupported = errors.New("remoting: cannot pause reading a gnet connection (gnet's layout or poller not recognised)")

// outboundCopyLimit bounds what gnet's output buffer holds for one
// connection, whatever its soft limit: gnet copies what the socket does not
// take, and 64 peers that never read held their 4 MiB soft limit each of
// small SYSTEM_BUSY answers (256 MiB of copies, twice that in the heap
// before the collector ran). Past it the connection is paused as past its
// soft limit; a peer that reads empties it as fast as the kernel's own
// send buffer (megabytes) drains.
const outboundCopyLimit = 256 << 10

// resumePollPeriod is how often paused connections are looked at again:
// gnet calls no handler when a peer reads, so the ticker wakes them.
const resumePollPeriod = 10 * time.Millisecond

// outboundGuard tracks the connections left unread for their output.
type outboundGuard struct {
	paused  sync.Map // conn id -> *Conn
	npaused atomic.Int64
	pauses  atomic.Uint64
	closed  atomic.Uint64
	log     overloadLog
	// total is the output all connections hold (pool_answers.go), against
	// OutboundMemoryLimit; holding has every connection that holds some.
	total         atomic.Int64
	holding       sync.Map // conn id -> *Conn
	budgetRefused atomic.Uint64
	// shared counts each large body once in total (shared_bodies.go).
	shared sharedBodies
	// readPauseWarned is set once the server said it cannot stop reading.
	readPauseWarned atomic.Bool
	// nextIdleScan is when OnTick next scans for idle connections; the
	// ticker runs faster while connections are paused.
	nextIdleScan atomic.Int64
}

// outputBlocked reports whether conn has so many answers waiting (pending
// is what this callback has collected and not yet written), gnet holds
// outboundCopyLimit of them, or an answer is partly given to gnet
// (pool_answers.go), so its next request must stay
// unread; it pauses conn then, and unpauses it otherwise. A paused
// connection is not read at all (followReadInterest). It runs on the event
// loop.
func (s *Server) outputBlocked(conn *Conn, gnetConn gnet.Conn, pending int) bool {
	blocked := conn.poolOut.partial || gnetConn.OutboundBuffered() >= outboundCopyLimit || conn.poolOut.refusedLately() ||
		int64(gnetConn.OutboundBuffered()+pending)+conn.poolOut.queued() >= int64(s.cfg.OutboundSoftLimit)
	if blocked != conn.outputPaused {
		conn.outputPaused = blocked
		if blocked {
			s.outbound.paused.Store(conn.id, conn)
			s.outbound.npaused.Add(1)
			s.outbound.pauses.Add(1)
			s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "outboundBuffered": gnetConn.OutboundBuffered()}).
				Debug("peer does not read its answers: its requests wait")
		} else {
			s.forgetPaused(conn)
			conn.touch(time.Now())
		}
	}
	return blocked
}

// refusedLately says a request of the connection was answered SYSTEM_BUSY
// for a full pool less than resumePollPeriod ago: its next requests wait
// for the next look. SYSTEM_BUSY asks a client to "start flow control for
// a while"; one that does not kept the event loop answering it: 64 peers
// pipelining topic lists and never reading took about 27,000 such answers
// each (their kernel send buffers' worth, ~4 MB) at once, and route queries
// on the same loops waited 100 to 400 ms meanwhile.
func (q *poolAnswerQueue) refusedLately() bool {
	return q.poolRefusedAt != 0 && time.Now().UnixNano()-q.poolRefusedAt < int64(resumePollPeriod)
}

// followReadInterest stops reading a paused connection's socket and reads
// it again once it resumes (read_pause_linux.go), so a peer that does not read
// its answers fills its own send buffer instead of the server's memory.
// gave says this callback gave gnet output: gnet may have turned reading
// back on then, as it has when new bytes were read; both pause it again.
// It runs on the event loop.
func (s *Server) followReadInterest(conn *Conn, gnetConn gnet.Conn, gave bool) {
	q := &conn.poolOut
	if conn.loop == nil {
		return // the TLS path's goroutine stops reading while paused (netlistener.go)
	}
	s.paceWakes(conn, gnetConn)
	switch {
	case conn.outputPaused && (!q.readOff || gave || gnetConn.InboundBuffered() != conn.heldInbound):
		err := setReading(gnetConn, false)
		q.readOff = err == nil
		if err != nil && !s.outbound.readPauseWarned.Swap(true) {
			s.log.WithError(err).Warn("cannot stop reading connections whose peers do not read: they are bounded by connectionOutboundHardLimit only")
		}
	case !conn.outputPaused && q.readOff:
		q.readOff = false
		if err := setReading(gnetConn, true); err != nil {
			s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}).WithError(err).
				Warn("cannot read the connection again after a pause: closing it")
			_ = conn.Close()
		}
	}
}

// forgetPaused drops conn from the paused set (it resumed or closed).
func (s *Server) forgetPaused(conn *Conn) {
	if _, found := s.outbound.paused.LoadAndDelete(conn.id); found {
		s.outbound.npaused.Add(-1)
	}
}

// outputOverflow reports whether conn holds more than the hard bound
// (answers waiting plus requests unread), logging and counting the close
// it asks for. It runs on the event loop.
func (s *Server) outputOverflow(conn *Conn, gnetConn gnet.Conn) bool {
	buffers := gnetConn.OutboundBuffered() + gnetConn.InboundBuffered()
	held := buffers + int(conn.poolOut.queued())
	// Past the server-wide budget a paused connection whose peer has read
	// nothing for OutboundStuckAfter while it holds a chunk or more is
	// closed too: each under its own limits (gnet holds outboundCopyLimit
	// at most), 5,000 of them would hold more than a GiB. A reader slower
	// than the rest is not, nor a connection paused for a pool's refusal.
	overBudget := conn.outputPaused && held >= outboundFeedChunk &&
		s.outbound.total.Load() > s.cfg.OutboundMemoryLimit && s.peerStuck(conn, gnetConn)
	if held <= s.cfg.OutboundHardLimit && !overBudget {
		return false
	}
	s.outbound.closed.Add(1)
	s.outbound.log.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "heldBytes": held,
			"connectionOutboundHardLimit": s.cfg.OutboundHardLimit, "outboundMemoryLimit": s.cfg.OutboundMemoryLimit}
	}, "peer does not read its answers: closing the connection", time.Now())
	return true
}

// DefaultOutboundStuckAfter is how long a peer past the outbound budget may
// read nothing before it is closed (ServerConfig.OutboundStuckAfter).
const DefaultOutboundStuckAfter = 100 * time.Millisecond

// peerStuck reports whether conn's socket has taken none of its output for
// OutboundStuckAfter. It runs on the event loop.
func (s *Server) peerStuck(conn *Conn, gnetConn gnet.Conn) bool {
	q := &conn.poolOut
	now := time.Now().UnixNano()
	if taken := q.written - int64(gnetConn.OutboundBuffered()); taken != q.taken || q.progressAt == 0 {
		q.taken, q.progressAt = taken, now
		return false
	}
	return now-q.progressAt >= int64(s.cfg.OutboundStuckAfter)
}

// wakePaused asks the event loop of every paused connection to look at it
// again (OnTraffic); one whose peer has read meanwhile goes on.
func (s *Server) wakePaused(now int64) {
	s.outbound.paused.Range(func(_, value any) bool {
		conn := value.(*Conn)
		if !conn.poolOut.listed.Load() && conn.poolOut.wakeAfter.Load() <= now { // else wakeHolding looks at it
			_ = conn.gnetConn.Wake(nil)
		}
		return true
	})
}

// maxWakeBackoff bounds how seldom the ticker looks at a paused or holding
// connection whose peer reads nothing: it looks every resumePollPeriod at
// first, then twice as seldom each time it finds no progress. 5,000 stuck
// non-readers woken every 10 ms would take a million callbacks a second
// from the event loops; a peer that reads again is served at once when it
// also sends (gnet reads it again once its buffer is written), within this
// otherwise.
const maxWakeBackoff = 320 * time.Millisecond

// paceWakes sets when the ticker next looks at conn: at once again after
// progress (its socket took output, or new bytes were read), later and
// later without. It runs on the event loop.
func (s *Server) paceWakes(conn *Conn, gnetConn gnet.Conn) {
	q := &conn.poolOut
	if !conn.outputPaused && !q.listed.Load() {
		q.wakeBackoff = 0
		return
	}
	taken := q.written - int64(gnetConn.OutboundBuffered())
	if taken != q.wakeTaken || gnetConn.InboundBuffered() != conn.heldInbound {
		q.wakeTaken, q.wakeBackoff = taken, 0
	} else {
		q.wakeBackoff = min(max(2*q.wakeBackoff, resumePollPeriod), maxWakeBackoff)
	}
	q.wakeAfter.Store(time.Now().Add(q.wakeBackoff).UnixNano())
}

// OutboundPauses counts the times a connection's requests (and socket) were
// left unread until its answers were written (outputBlocked), since start.
func (s *Server) OutboundPauses() uint64 { return s.outbound.pauses.Load() }

// OutboundClosedConnections counts the connections closed for holding more
// than the outbound hard limit, since start.
func (s *Server) OutboundClosedConnections() uint64 { return s.outbound.closed.Load() }
