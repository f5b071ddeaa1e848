package remoting

import (
	"fmt"
	"sync/atomic"
	"time"
)

// Why the server closed a connection for the memory its frames held
// (FrameCloses): a large frame got no byte for LargeFrameStallTimeout, a
// large frame arrived slower than LargeFrameMinRate, a partial small frame
// found no room in the request memory (request_memory_share.go).
const (
	closeStalled = iota
	closeSlow
	closeMemory
	closeReasons
)

// FrameCloseReasons names the reasons of FrameCloses, by index.
var FrameCloseReasons = [closeReasons]string{"stalled", "slow", "memory"}

// frameProgress is what the event loop publishes of the large frame a
// connection is reading, for the rate check on the ticker goroutine.
// Updated with atomics on the loop: a new frame stores its size, filled and
// time before its sequence number, so a reader that sees the new number
// sees them too.
type frameProgress struct {
	// seq numbers the connection's large frames; grewNanos is when the
	// current one last grew (0: none being read); filled and size its bytes
	// received and expected.
	seq          atomic.Uint64
	grewNanos    atomic.Int64
	filled, size atomic.Int64
	// the rate window, the ticker goroutine's only: the frame it belongs
	// to, when it began and the bytes received then.
	windowSeq             uint64
	windowStart, windowAt int64
}

// started publishes a new large frame of size bytes.
func (p *frameProgress) started(size int, now time.Time) {
	p.size.Store(int64(size))
	p.filled.Store(0)
	p.grewNanos.Store(now.UnixNano())
	p.seq.Add(1)
}

// grew publishes that the frame now has filled bytes.
func (p *frameProgress) grew(filled int, now time.Time) {
	if int64(filled) != p.filled.Load() {
		p.filled.Store(int64(filled))
		p.grewNanos.Store(now.UnixNano())
	}
}

// ended says no large frame is being read.
func (p *frameProgress) ended() { p.grewNanos.Store(0) }

// verdict is the rate check of one tick: closeReasons when the frame may
// go on, or why its connection is closed. A frame that got no byte for
// timeout is stalled; one that, over a window of timeout, got fewer than
// minRate bytes a second (or than it still lacked, when less) is slow.
// Ticker goroutine only.
func (p *frameProgress) verdict(now time.Time, timeout time.Duration, minRate int64) int {
	seq := p.seq.Load()
	grew, filled, size := p.grewNanos.Load(), p.filled.Load(), p.size.Load()
	if grew == 0 || seq != p.seq.Load() {
		return closeReasons // none, or a new one began while we read
	}
	at := now.UnixNano()
	if at-grew >= int64(timeout) {
		return closeStalled
	}
	if minRate <= 0 {
		return closeReasons
	}
	if seq != p.windowSeq {
		p.windowSeq, p.windowStart, p.windowAt = seq, at, filled
		return closeReasons
	}
	elapsed := at - p.windowStart
	if elapsed < int64(timeout) {
		return closeReasons
	}
	want := min(minRate*elapsed/int64(time.Second), size-p.windowAt)
	if filled-p.windowAt < want {
		return closeSlow
	}
	p.windowStart, p.windowAt = at, filled
	return closeReasons
}

// excuse restarts the frame's clocks at now: its bytes wait in the socket
// because the server stopped reading it, not because the peer stalled.
// Ticker goroutine only; a frame that ended meanwhile stays ended.
func (p *frameProgress) excuse(now time.Time) {
	if grew := p.grewNanos.Load(); grew != 0 {
		p.grewNanos.CompareAndSwap(grew, now.UnixNano())
	}
	p.windowSeq, p.windowStart, p.windowAt = p.seq.Load(), now.UnixNano(), p.filled.Load()
}

// checkFrameRate closes conn when its large frame stalled or is too slow
// (see verdict); it runs on the ticker goroutine, and only asks gnet to
// close: the event loop does the rest (OnClose gives the memory back). A
// connection left unread for its unread answers (outbound_limit.go) is
// excused: the server, not its peer, stopped the frame.
func (s *Server) checkFrameRate(conn *Conn, now time.Time) {
	reason := conn.progress.verdict(now, s.cfg.LargeFrameStallTimeout, s.cfg.LargeFrameMinRate)
	if reason == closeReasons {
		return
	}
	if _, paused := s.outbound.paused.Load(conn.id); paused {
		conn.progress.excuse(now)
		return
	}
	if !conn.idleClosing.CompareAndSwap(false, true) {
		return
	}
	s.frameCloses[reason].Add(1)
	s.logBadInput(conn, fmt.Errorf("frame of %d bytes at %d (largeFrameStallTimeout %s, largeFrameMinRate %d bytes/s): %s: %w",
		conn.progress.size.Load(), conn.progress.filled.Load(), s.cfg.LargeFrameStallTimeout, s.cfg.LargeFrameMinRate,
		FrameCloseReasons[reason], ErrFrameStalled))
	if err := conn.Close(); err != nil {
		s.log.WithError(err).Debug("close stalled connection")
	}
}

// FrameCloses returns how many connections were closed for each of
// FrameCloseReasons.
func (s *Server) FrameCloses() [closeReasons]uint64 {
	var out [closeReasons]uint64
	for i := range out {
		out[i] = s.frameCloses[i].Load()
	}
	return out
}

// RequestMemoryArriving returns the request bytes that frames still
// arriving hold now (part of RequestMemory's held).
func (s *Server) RequestMemoryArriving() int64 { return s.memory.arriving.Load() }
