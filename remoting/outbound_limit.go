package remoting

import (
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
	// nextIdleScan is when OnTick next scans for idle connections; the
	// ticker runs faster while connections are paused.
	nextIdleScan atomic.Int64
}

// outputBlocked reports whether conn has so many answers waiting (pending
// is what this callback has collected and not yet written) that its next
// request must stay unread; it pauses conn then, and unpauses it otherwise.
// It runs on the event loop.
func (s *Server) outputBlocked(conn *Conn, gnetConn gnet.Conn, pending int) bool {
	blocked := int64(gnetConn.OutboundBuffered()+pending)+conn.poolOut.queued() >= int64(s.cfg.OutboundSoftLimit)
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
	held := gnetConn.OutboundBuffered() + gnetConn.InboundBuffered() + int(conn.poolOut.queued())
	// Past the server-wide budget a paused connection holding more than its
	// soft limit is closed too: 64 of them each under the hard limit would
	// hold 2 GiB.
	overBudget := conn.outputPaused && held > s.cfg.OutboundSoftLimit && s.outbound.total.Load() > s.cfg.OutboundMemoryLimit
	if held <= s.cfg.OutboundHardLimit && !overBudget {
		return false
	}
	s.outbound.closed.Add(1)
	s.outbound.log.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "heldBytes": held,
			"connectionOutboundHardLimit": s.cfg.OutboundHardLimit}
	}, "peer does not read its answers and keeps sending: closing the connection", time.Now())
	return true
}

// wakePaused asks the event loop of every paused connection to look at it
// again (OnTraffic); one whose peer has read meanwhile goes on.
func (s *Server) wakePaused() {
	s.outbound.paused.Range(func(_, value any) bool {
		_ = value.(*Conn).gnetConn.Wake(nil)
		return true
	})
}

// OutboundPauses counts the times a connection's requests were left unread
// because its peer did not read its answers, since start.
func (s *Server) OutboundPauses() uint64 { return s.outbound.pauses.Load() }

// OutboundClosedConnections counts the connections closed for holding more
// than the outbound hard limit, since start.
func (s *Server) OutboundClosedConnections() uint64 { return s.outbound.closed.Load() }
