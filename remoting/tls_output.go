package remoting

import (
	"time"

	"github.com/panjf2000/gnet/v2"
)

// The TLS path (netconn.go) under the same output accounting as gnet's:
// a worker's answer counts against the server-wide budget and the
// connection's hard limit before it is queued, and the connection's queued
// bytes against its soft limit; past it the reading goroutine reads no more
// (waitWhilePaused), so the peer's own socket fills. Before, every worker
// answer started a goroutine of its own holding a joined copy of header and
// shared body, counted nowhere, and the reading goroutine went on reading.

// netWrite is one asynchronous write of a netConn.
type netWrite struct {
	pieces   [][]byte
	callback gnet.AsyncCallback
}

// AsyncWritev queues the pieces behind the connection's other asynchronous
// writes, written together by its one writing goroutine (started when the
// first is queued, ended when none is left), and then calls callback. The
// pieces are not copied: a shared body stays shared.
func (c *netConn) AsyncWritev(pieces [][]byte, callback gnet.AsyncCallback) error {
	if c.closed.Load() {
		return ErrConnectionClosed
	}
	c.writesMu.Lock()
	c.writes = append(c.writes, netWrite{pieces: pieces, callback: callback})
	start := !c.writing
	c.writing = true
	c.writesMu.Unlock()
	if start {
		go c.writeQueued()
	}
	return nil
}

// writeQueued writes the queued asynchronous writes in order until none is
// left.
func (c *netConn) writeQueued() {
	for {
		c.writesMu.Lock()
		if len(c.writes) == 0 {
			c.writing = false
			c.writesMu.Unlock()
			return
		}
		next := c.writes[0]
		c.writes[0] = netWrite{}
		c.writes = c.writes[1:]
		c.writesMu.Unlock()
		_, err := c.writeAll(next.pieces)
		if next.callback != nil {
			_ = next.callback(c, err)
		}
	}
}

// Wake asks the reading goroutine of a paused connection to look at it
// again (the ticker's wakePaused and wakeHolding; the callback is unused).
func (c *netConn) Wake(gnet.AsyncCallback) error {
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return nil
}

// queueNetAnswer is queuePoolAnswer for a connection of the TLS path: the
// answer is counted against the budget (refused past it) and the hard limit
// (closed past it), queued for the connection's writing goroutine, and
// uncounted once written.
func (s *Server) queueNetAnswer(conn *Conn, request *Command, frame, body []byte, done func()) error {
	q := &conn.poolOut
	reserved := int64(len(frame) + len(body))
	if !s.reserveOutput(conn, reserved, done) {
		return ErrConnectionClosed
	}
	answer := s.fitBudget(conn, request, frame, body)
	size := int64(len(answer.frame) + len(answer.body))
	q.bytes.Add(size - reserved)
	return conn.asyncWrite(answer.frame, answer.body, func() {
		q.bytes.Add(-size)
		s.unchargeAnswer(answer.frame, answer.body, answer.shared)
		done()
		_ = conn.gnetConn.Wake(nil)
	})
}

// waitWhilePaused holds a TLS connection's reading goroutine while the
// connection is paused (outputBlocked), looking at it again when one of its
// answers is written or every resumePollPeriod; false when it closed.
func (l *netListener) waitWhilePaused(nc *netConn) bool {
	conn, ok := nc.Context().(*Conn)
	if !ok {
		return true
	}
	for conn.outputPaused {
		if nc.closed.Load() {
			return false
		}
		select {
		case <-nc.wake:
		case <-time.After(resumePollPeriod):
		}
		if l.events.OnTraffic(nc) == gnet.Close {
			return false
		}
	}
	return true
}
