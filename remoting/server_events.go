package remoting

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"
)

// Bounds of the idle scan period: a quarter of the idle timeout, so a
// connection is closed at most 25% late, but not more often than every
// 10 ms nor less often than every second.
const (
	minIdleScanPeriod = 10 * time.Millisecond
	maxIdleScanPeriod = time.Second
)

// eventHandler receives gnet's callbacks for one Server; it keeps them off
// the Server's exported method set.
type eventHandler struct {
	gnet.BuiltinEventEngine
	server *Server
	// running is closed-once at the first tick: gnet starts the ticker
	// after the event loops, so connections can be handed to them from then.
	running sync.Once
}

// OnBoot records the engine; the first OnTick lets Start return.
func (h *eventHandler) OnBoot(engine gnet.Engine) gnet.Action {
	h.server.engine = engine
	return gnet.None
}

// OnOpen registers the connection, or refuses it while shutting down.
func (h *eventHandler) OnOpen(gnetConn gnet.Conn) ([]byte, gnet.Action) {
	s := h.server
	counted := preAdmitted(gnetConn.Context()) // by the accept path (hand, netListener.admit)
	if s.state.Load() != stateRunning {
		if counted {
			s.guard.release()
		}
		return nil, gnet.Close
	}
	if !counted && !s.admitOrEvict(fmt.Sprint(gnetConn.RemoteAddr())) {
		return nil, gnet.Close
	}
	conn := newConn(gnetConn, time.Now())
	s.classify(conn, time.Now())
	if conn.loop = s.loopStateOf(gnetConn.EventLoop()); conn.loop != nil {
		conn.loop.conns.Add(1)
	}
	gnetConn.SetContext(conn)
	s.conns.Store(conn.id, conn)
	s.trackQuiet(conn)
	s.observe().ConnOpened(conn)
	s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}).Debug("connection opened")
	return nil, gnet.None
}

// OnClose unregisters the connection and runs the close listeners once.
func (h *eventHandler) OnClose(gnetConn gnet.Conn, cause error) gnet.Action {
	conn, ok := gnetConn.Context().(*Conn)
	if !ok {
		return gnet.None
	}
	s := h.server
	conn.closed.Store(true)
	s.conns.Delete(conn.id)
	if conn.loop != nil {
		conn.loop.conns.Add(-1)
	}
	s.guard.release()
	s.forgetQuiet(conn)
	s.forgetPaused(conn)
	s.dropPoolAnswers(conn)
	if conn.assembly != nil { // closed inside a large frame
		s.abandonLargeFrame(conn, conn.assembly)
		conn.assembly = nil
	}
	s.releasePartial(conn)
	fields := logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}
	if cause != nil {
		fields["cause"] = cause.Error()
	}
	s.log.WithFields(fields).Debug("connection closed")
	s.observe().ConnClosed(conn)
	for _, listener := range *s.closeListeners.Load() {
		h.runCloseListener(listener, conn)
	}
	return gnet.None
}

func (h *eventHandler) runCloseListener(listener func(*Conn), conn *Conn) {
	defer func() {
		if recovered := recover(); recovered != nil {
			h.server.log.WithFields(logrus.Fields{"conn": conn.id, "panic": recovered}).Error("close listener panicked")
		}
	}()
	listener(conn)
}

// OnTraffic decodes and dispatches every complete frame in the inbound
// buffer, stops at an incomplete one, and writes the answers in one go.
// Bad input closes the connection without a reply.
func (h *eventHandler) OnTraffic(gnetConn gnet.Conn) gnet.Action {
	conn, ok := gnetConn.Context().(*Conn)
	if !ok {
		return gnet.Close
	}
	s := h.server
	now := time.Now()
	// A paused connection is woken every resumePollPeriod: only new bytes
	// (or resuming, see outputBlocked) count as activity for the idle check.
	wokenForOutput := conn.poolOut.wake.Swap(false)
	if (!conn.outputPaused && !wokenForOutput) || gnetConn.InboundBuffered() != conn.heldInbound {
		conn.touch(now)
	}
	gave := s.drainPoolAnswers(conn, gnetConn)
	s.releasePartial(conn) // counted again below, once this read is taken
	out := conn.outBuffer[:0]
	action := gnet.None
	var clock int64 // see fastFrame
	for !s.outputBlocked(conn, gnetConn, len(out)) {
		if answered, ok := s.fastFrame(conn, gnetConn, out, &clock); ok {
			out = answered
			continue
		}
		clock = 0
		request, err := s.nextFrame(conn, gnetConn)
		if err != nil {
			s.logBadInput(conn, err)
			action = gnet.Close
			break
		}
		if request == nil {
			break
		}
		var body []byte
		collected := len(out)
		if out, body = s.dispatch(conn, request, out); body != nil {
			// a large shared body goes out behind what is collected, uncopied
			if conn.loop != nil {
				s.queueLoopAnswer(conn, gnetConn, out[:collected], out[collected:], body)
			} else {
				s.writeOut(conn, gnetConn, out, body)
			}
			out = out[:0]
		}
	}
	if len(out) > 0 {
		s.writeOut(conn, gnetConn, out, nil)
	}
	if cap(out) <= maxRetainedOutBuffer {
		conn.outBuffer = out[:0]
	} else {
		conn.outBuffer = nil
	}
	if !conn.outputPaused { // a paused connection's unread bytes are whole requests waiting, not a stalled frame
		conn.notePartialFrame(conn.assembly != nil || gnetConn.InboundBuffered() > 0, now)
	}
	if action == gnet.None && s.outputOverflow(conn, gnetConn) {
		action = gnet.Close
	}
	if action == gnet.None {
		if err := s.holdPartial(conn, gnetConn); err != nil {
			s.logBadInput(conn, err)
			action = gnet.Close
		} else {
			s.followReadInterest(conn, gnetConn, gave)
		}
	}
	conn.heldInbound = gnetConn.InboundBuffered()
	s.noteBuffered(conn, gnetConn)
	return action
}

// writeOut writes the answers collected in out, then body if there is one,
// in one system call; gnet keeps what the socket does not take.
func (s *Server) writeOut(conn *Conn, gnetConn gnet.Conn, out, body []byte) {
	conn.poolOut.written += int64(len(out) + len(body))
	var err error
	if body == nil {
		_, err = gnetConn.Write(out)
	} else {
		_, err = gnetConn.Writev([][]byte{out, body})
	}
	if err != nil {
		s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}).WithError(err).Debug("write failed")
	}
}

// nextFrame returns the next complete request, nil when only part of one
// has arrived, or an error for bad input. A small frame's body is copied,
// since the peeked bytes die at Discard; a large one is read into a buffer
// of its own as it arrives (frame_large.go).
func (s *Server) nextFrame(conn *Conn, gnetConn gnet.Conn) (*Command, error) {
	if conn.assembly != nil {
		return s.continueLargeFrame(conn, gnetConn)
	}
	buffered := gnetConn.InboundBuffered()
	if buffered < frameLengthSize {
		return nil, nil
	}
	head, err := gnetConn.Peek(min(buffered, frameLengthSize+headerWordSize))
	if err != nil {
		return nil, nil
	}
	total, _, err := FrameLength(head, s.cfg.MaxFrameSize)
	if err != nil {
		return nil, err
	}
	if total >= largeFrameSize && len(head) == frameLengthSize+headerWordSize {
		s.startLargeFrame(conn, gnetConn, total)
		return s.continueLargeFrame(conn, gnetConn)
	}
	if buffered < total {
		return nil, nil
	}
	frame, err := gnetConn.Peek(total)
	if err != nil {
		return nil, nil
	}
	request, err := DecodeFrame(frame[frameLengthSize:])
	if err == nil && request.Body != nil {
		request.Body = bytes.Clone(request.Body)
	}
	_, _ = gnetConn.Discard(total)
	return request, err
}

// OnTick wakes the paused connections (outbound_limit.go) and those
// holding output (pool_answers.go), and closes connections idle for longer
// than IdleTimeout. It runs every resumePollPeriod, scanning for idle ones
// only when that is due.
func (h *eventHandler) OnTick() (time.Duration, gnet.Action) {
	s := h.server
	h.running.Do(func() { close(s.booted) })
	now := time.Now()
	// Every resumePollPeriod: a worker answer can be queued behind a full
	// output buffer at any moment (pool_answers.go), and its first look
	// must not wait for the idle scan's period (up to a second).
	period := min(s.scanPeriod(), resumePollPeriod)
	if s.outbound.npaused.Load() > 0 {
		s.wakePaused(now.UnixNano())
	}
	s.wakeHolding(now.UnixNano())
	if now.UnixNano() < s.outbound.nextIdleScan.Load() {
		return period, gnet.None
	}
	s.outbound.nextIdleScan.Store(now.Add(s.scanPeriod()).UnixNano())
	cutoff := now.Add(-s.cfg.IdleTimeout)
	s.conns.Range(func(_, value any) bool {
		conn := value.(*Conn)
		if s.cfg.LargeFrameStallTimeout > 0 {
			s.checkFrameRate(conn, now)
		}
		idle, stalled := conn.idleSince(cutoff), conn.frameStalledSince(cutoff)
		if (idle || stalled) && conn.idleClosing.CompareAndSwap(false, true) {
			what := "closing idle connection"
			if !idle {
				what = "closing connection: a frame took longer than the idle timeout to arrive"
			}
			s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "idleTimeout": s.cfg.IdleTimeout}).
				Info(what)
			if err := conn.Close(); err != nil {
				s.log.WithError(err).Debug("close idle connection")
			}
		}
		return true
	})
	return period, gnet.None
}

// scanPeriod is how often the idle scan runs: a quarter of the idle
// timeout, or of the large-frame stall timeout when that is shorter, within
// the scan bounds.
func (s *Server) scanPeriod() time.Duration {
	period := idleScanPeriod(s.cfg.IdleTimeout)
	if s.cfg.LargeFrameStallTimeout > 0 {
		period = min(period, idleScanPeriod(s.cfg.LargeFrameStallTimeout))
	}
	return period
}

// idleScanPeriod is a quarter of the idle timeout within the scan bounds.
func idleScanPeriod(idleTimeout time.Duration) time.Duration {
	return min(max(idleTimeout/4, minIdleScanPeriod), maxIdleScanPeriod)
}
