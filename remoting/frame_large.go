package remoting

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/panjf2000/gnet/v2"

	"github.com/gonamesrv/gonamesrv/internal/crcfast"
)

// largeFrameSize is the frame size from which the server reads a frame
// straight into a buffer of its own as its bytes arrive. gnet would
// otherwise keep the unread part of every read in the connection's ring
// buffer, which grows by copying, and the body would be copied once more out
// of it: three copies of a 2 MB registration body instead of one. Smaller
// frames are cheaper to peek and copy than to assemble.
const largeFrameSize = 64 << 10

// Bounds of the pool of large-frame buffers: how many it keeps, the bytes
// they may hold together, and the largest buffer it keeps (a registration
// body of 10,000 topics is ~1 MB, of 20,000 ~2 MB). 32 covers a cluster's
// brokers re-registering at once (Java's JMH shape has 32); with 8, the
// others allocated and the collector took ~13% of the server's CPU in that
// storm. In the fault suite's flood of 2 MB registrations on 64
// connections, 32 buffers left half the frames to be allocated (and
// zeroed) on the event loop, the collector assisting there: the bound is
// in bytes (128 MiB, what 32 of the largest held before), so ~56 buffers
// of 2 MB fit.
const (
	maxPooledFrameBuffers = 128
	maxPooledFrameBytes   = 128 << 20
	maxPooledFrameBuffer  = 4 << 20
)

// frameAssembly is a large frame being read, length field excluded. Its
// buffer grows with the bytes that arrive (or is a pooled one already big
// enough), so a peer that announces 16 MiB and sends little costs little:
// memory follows what was received, not what was announced.
type frameAssembly struct {
	frame  []byte // len(frame) <= size; the first filled bytes are read
	filled int
	size   int // the frame's length, from its length field
	body   bodySum
	// held is what the frame counts against the server's request memory.
	held int64
	// header is set once the frame came past the request memory limit: the
	// header word and header (maxKeptHeader at most), kept to answer
	// SYSTEM_BUSY, while the rest
	// of the frame is read into scratch and dropped (frame is then nil).
	header  []byte
	scratch []byte
	// headerMissing is how much of header is still to arrive (0 but when
	// the frame came past the limit inside its header).
	headerMissing int
}

// bodySum is the CRC-32 (IEEE) of a large frame's body, taken as its bytes
// arrive, while the kernel has just copied them into the cache: the
// registration handler checks the body against its bodyCrc32 field, and a
// second pass over 2 MB, cold, on a worker, cost more than the sum here
// and kept the event loops waiting for a processor in a registration storm.
type bodySum struct {
	start  int // offset of the body in the frame; 0 until the header word is in
	summed int // frame bytes up to which crc is taken
	crc    uint32
}

// update sums the bytes of the body among the first filled bytes of frame.
func (b *bodySum) update(frame []byte, filled int) {
	if b.start == 0 {
		if filled < headerWordSize {
			return
		}
		b.start = bodyOffset(frame)
		b.summed = b.start
	}
	if filled > b.summed {
		b.crc = crcfast.Update(b.crc, frame[b.summed:filled])
		b.summed = filled
	}
}

// bodyOffset is where the body of a frame (length field excluded) starts,
// read from its header word, which must be there. The frame loop checked
// the word: the header fits the frame.
func bodyOffset(frame []byte) int {
	return headerWordSize + int(binary.BigEndian.Uint32(frame)&maxHeaderLength)
}

// wholeFrameFactor: a frame's buffer grows to its whole size once the bytes
// it must hold are at least 1/wholeFrameFactor of it (ensure).
const wholeFrameFactor = 8

// initialAssemblySize is the first buffer of a frame no pooled buffer can
// hold; it doubles as bytes arrive.
const initialAssemblySize = largeFrameSize

// startLargeFrame begins reading a frame of total bytes (length field
// included) whose first 8 bytes are buffered and valid.
func (s *Server) startLargeFrame(conn *Conn, gnetConn gnet.Conn, total int) {
	_, _ = gnetConn.Discard(frameLengthSize)
	size := total - frameLengthSize
	frame := s.frameBuffers.reuse(size)
	if frame == nil {
		frame = make([]byte, min(size, initialAssemblySize))
	}
	conn.assembly = &frameAssembly{frame: frame, size: size}
	conn.progress.started(size, time.Now())
}

// ensure makes room for the first n bytes of the frame (at most its size),
// at least doubling the buffer when it grows, and taking the whole frame at
// once when n is an eighth of it or more. Growing a 2 MB frame 64 KiB ->
// 576 KiB -> 1.1 MiB -> 2 MiB zeroed 3.8 MB and copied 1.8 MB on the event
// loop: in the 2 MB registration flood that was two thirds of the loops'
// CPU (issue 22, profile in docs/performance.md). Jumping to the size
// allocates 2 MiB and copies what arrived before; a peer still gets at most
// eight times what it sent (a 16 MiB frame's buffer after 2 MiB arrived).
func (a *frameAssembly) ensure(n int) {
	n = min(n, a.size)
	if n <= len(a.frame) {
		return
	}
	l := max(n, min(a.size, 2*len(a.frame)))
	if a.size <= wholeFrameFactor*n {
		l = a.size
	}
	grown := make([]byte, l, l+l/8) // spare room: the next frame of this broker may be a little longer
	copy(grown, a.frame[:a.filled])
	a.frame = grown
}

// continueLargeFrame moves what has arrived into the frame being assembled
// and returns the request once it is complete, nil before.
func (s *Server) continueLargeFrame(conn *Conn, gnetConn gnet.Conn) (*Command, error) {
	a := conn.assembly
	if a.header != nil {
		return s.dropLargeFrame(conn, gnetConn)
	}
	a.ensure(a.filled + gnetConn.InboundBuffered())
	n, _ := gnetConn.Read(a.frame[a.filled:])
	a.filled += n
	if a.filled < a.size {
		if err := a.readSocket(gnetConn.Fd()); err != nil {
			return nil, err
		}
	}
	if grown := int64(a.filled) - a.held; !s.memory.reserveFor(conn, grown) {
		if err := s.overMemory(conn, a); err != nil {
			return nil, err
		}
		return s.dropLargeFrame(conn, gnetConn)
	} else if grown > 0 {
		s.memory.arriving.Add(grown)
	}
	a.held = int64(a.filled)
	a.body.update(a.frame, a.filled)
	if a.filled < a.size {
		conn.progress.grew(a.filled, time.Now())
		return nil, nil
	}
	conn.assembly = nil
	conn.progress.ended()
	s.memory.arriving.Add(-a.held) // held on as the request's
	request, err := DecodeFrame(a.frame)
	if err != nil {
		s.abandonArrived(conn, a)
		return nil, err
	}
	if request.Body == nil {
		s.abandonArrived(conn, a) // nothing refers to the buffer: the header is decoded into copies
	} else {
		request.frameBuffer, request.frameBuffers = a.frame, s.frameBuffers
		// DecodeFrame's body starts at bodyOffset, where the sum started
		request.bodyCRC, request.bodyCRCKnown = a.body.crc, true
		request.heldBytes, request.heldBy = a.held, conn
	}
	return request, nil
}

// abandonLargeFrame gives back the memory of a frame still arriving that
// no request will carry: its buffer to the pool, its bytes to the request
// memory and conn's share.
func (s *Server) abandonLargeFrame(conn *Conn, a *frameAssembly) {
	s.memory.arriving.Add(-a.held)
	s.abandonArrived(conn, a)
}

// abandonArrived is abandonLargeFrame for a frame whose bytes no longer
// count as arriving.
func (s *Server) abandonArrived(conn *Conn, a *frameAssembly) {
	if a.frame != nil {
		s.frameBuffers.put(a.frame)
		a.frame = nil
	}
	s.memory.releaseFor(conn, a.held)
	a.held = 0
}

// maxKeptHeader bounds the header of a frame past the request memory
// limit that is still read whole, outside the limit, to answer the frame
// SYSTEM_BUSY: a broker's or client's header is a few hundred bytes. Past
// it the connection closes (nothing of the frame can be answered without
// its header). Read whole, a frame's first bytes can end inside its header
// when the previous frame ended just before them in the same read; under
// the 2 MB registration flood that closed 5 of 64 brokers' connections in
// a run, their pipelined registrations unanswered (issue 22).
const maxKeptHeader = 64 << 10

// overMemory switches a frame that would pass the request memory limit to
// being dropped: its header is kept (or, when only part of it arrived, a
// buffer for it) to answer, its buffer and bytes given back.
func (s *Server) overMemory(conn *Conn, a *frameAssembly) error {
	headerEnd := bodyOffset(a.frame)
	if a.filled < headerEnd && headerEnd > maxKeptHeader {
		s.abandonLargeFrame(conn, a)
		s.frameCloses[closeMemory].Add(1)
		return fmt.Errorf("frame of %d bytes with a header of %d: %w", a.size, headerEnd, ErrRequestMemory)
	}
	header, missing := keptHeader(a.frame[:a.filled], headerEnd)
	s.abandonLargeFrame(conn, a)
	a.header, a.headerMissing = header, missing
	return nil
}

// keptHeader copies the header of a frame (length field excluded) ending
// at headerEnd out of the arrived bytes, into a buffer of the header's
// size; missing is what of it has not arrived.
func keptHeader(arrived []byte, headerEnd int) (header []byte, missing int) {
	header = make([]byte, headerEnd)
	return header, headerEnd - copy(header, arrived)
}

// dropLargeFrame reads the rest of a frame that came past the request
// memory limit (its header first, when part of it is still to come) and
// drops it; once it has all arrived it returns the request decoded from
// the header alone, marked to be answered SYSTEM_BUSY.
func (s *Server) dropLargeFrame(conn *Conn, gnetConn gnet.Conn) (*Command, error) {
	a := conn.assembly
	if a.headerMissing > 0 {
		// from gnet's buffer only: the rest of the header is in the
		// next read at the latest, and the direct reads go to scratch
		n, _ := gnetConn.Read(a.header[len(a.header)-a.headerMissing:])
		a.headerMissing -= n
		a.filled += n
		if a.headerMissing > 0 {
			conn.progress.grew(a.filled, time.Now())
			return nil, nil
		}
	}
	n, _ := gnetConn.Discard(min(gnetConn.InboundBuffered(), a.size-a.filled))
	a.filled += n
	if a.filled < a.size {
		if a.scratch == nil {
			a.scratch = make([]byte, largeFrameSize)
		}
		if err := a.readSocket(gnetConn.Fd()); err != nil {
			return nil, err
		}
	}
	if a.filled < a.size {
		conn.progress.grew(a.filled, time.Now())
		return nil, nil
	}
	conn.assembly = nil
	conn.progress.ended()
	request, err := DecodeFrame(a.header)
	if err != nil {
		return nil, err
	}
	request.overMemory = true
	return request, nil
}

// maxDirectRead bounds what one callback reads from the socket into a large
// frame, beyond what gnet read (its loop buffer, 64 KiB), so one broker's
// 2 MB cannot keep the event loop from the other connections for long; the
// poller reports the rest at its next turn. A route query on the same loop
// is read once a turn, and a turn lasts about (connections sending large
// frames) x (gnet's 64 KiB + maxDirectRead) of copying: 512 KiB made a turn
// over 32 flood connections ~18 MB, 64 KiB makes it 4 MB, for more read
// calls (cheap next to the copy they make). The zero-work baseline of
// nsbench reads 64 KiB a callback. With wholeFrameFactor a 2 MB frame's
// buffer grows three times (128 KiB, 256 KiB, then the whole frame).
const maxDirectRead = 64 << 10

// readSocket reads what the socket holds of the frame, up to maxDirectRead,
// straight into the frame (or into scratch, to drop it, once the frame came
// past the request memory limit): gnet has already handed over what it
// read, and reading on through its 64 KiB loop buffer would copy every byte
// once more. It runs on the connection's event loop, the only reader of the
// socket, which stays level-triggered, so nothing is missed. The end of the
// stream or a read error is returned, to close the connection.
func (a *frameAssembly) readSocket(fd int) error {
	if fd < 0 { // a net.Conn path connection: its bytes come through the inbound buffer
		return nil
	}
	limit := min(a.size, a.filled+maxDirectRead)
	dropping := a.header != nil
	if !dropping {
		a.ensure(limit)
	}
	for a.filled < limit {
		var into []byte
		if dropping {
			into = a.scratch[:min(len(a.scratch), limit-a.filled)]
		} else {
			into = a.frame[a.filled:limit]
		}
		n, err := syscall.Read(fd, into)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return nil
		case err != nil:
			return fmt.Errorf("read frame body: %w", err)
		case n == 0:
			return fmt.Errorf("read frame body: %w", io.ErrUnexpectedEOF)
		}
		a.filled += n
	}
	return nil
}

// BodyCRC32 returns the CRC-32 (IEEE, as hash/crc32 computes it, not
// masked) of Body when the server took it while the frame arrived (large
// frames), and false when the caller must compute it.
func (c *Command) BodyCRC32() (uint32, bool) { return c.bodyCRC, c.bodyCRCKnown }

// ReleaseBody hands the buffer holding a large request's body back to the
// server, which reads a later large frame into it, and clears Body. A
// handler calls it when it is done with the body: neither Body nor anything
// sharing its memory may be used afterwards (decoded strings are copies).
// Without the call the buffer is left to the garbage collector, as any
// other body. It does nothing for other commands and when called twice.
func (c *Command) ReleaseBody() {
	if c.frameBuffers == nil {
		return
	}
	c.frameBuffers.put(c.frameBuffer)
	c.Body, c.frameBuffer, c.frameBuffers, c.bodyCRCKnown = nil, nil, nil, false
}

// frameBufferPool keeps up to maxPooledFrameBuffers released buffers, of
// maxPooledFrameBytes at most together, for reuse, so that a broker
// re-registering every few milliseconds does not allocate, zero and collect
// a 2 MB buffer each time. Safe for concurrent use: handlers release from
// worker goroutines.
type frameBufferPool struct {
	free chan []byte
	// held is the capacity of the buffers in free, reserved before a put
	// and given back after a reuse takes one.
	held atomic.Int64
}

func newFrameBufferPool() *frameBufferPool {
	return &frameBufferPool{free: make(chan []byte, maxPooledFrameBuffers)}
}

// reuse returns a pooled buffer of length n when one is large enough, nil
// otherwise (a pooled buffer too small for n is dropped).
func (p *frameBufferPool) reuse(n int) []byte {
	select {
	case buf := <-p.free:
		p.held.Add(-int64(cap(buf)))
		if cap(buf) >= n {
			return buf[:n]
		}
	default:
	}
	return nil
}

// put keeps buf for reuse unless the pool is full, in count or in bytes,
// or buf is too large to keep idle.
func (p *frameBufferPool) put(buf []byte) {
	size := int64(cap(buf))
	if size > maxPooledFrameBuffer {
		return
	}
	if p.held.Add(size) > maxPooledFrameBytes {
		p.held.Add(-size)
		return
	}
	select {
	case p.free <- buf[:0]:
	default:
		p.held.Add(-size)
	}
}
