package remoting

import (
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"

	"github.com/gonamesrv/gonamesrv/internal/tlscork"
)

// netWriteTimeout bounds one write to a connection of the net.Conn path
// (TLS): a peer that stops reading is closed after it, so a worker's answer
// never waits longer.
const netWriteTimeout = 10 * time.Second

// netReadChunk is the room one read of the net.Conn path gets (a TLS read
// returns one record, 16 KiB of plaintext at most); maxRetainedInbound
// bounds the buffer a connection keeps between reads, so 10,000 idle
// connections hold 16 KiB each, not more.
const (
	netReadChunk       = 16 << 10
	maxRetainedInbound = 64 << 10
)

// netConn lets a connection accepted by a Go net.Listener (TLS, which gnet
// has not) go through the same event handler as gnet's own: it is the
// gnet.Conn the server's callbacks see, holding the bytes read so far. One
// goroutine per connection reads and calls OnTraffic, so the callbacks of
// one connection never overlap, as on an event loop. The embedded gnet.Conn
// is nil: the server calls none of the methods it would provide.
type netConn struct {
	gnet.Conn
	raw     net.Conn // the TLS or plain connection
	in      []byte   // read and not yet consumed
	base    []byte   // the buffer in starts in, reused once in is consumed
	ctx     any
	writeMu sync.Mutex
	// cork is under a TLS connection (package tlscork), nil otherwise.
	cork   *tlscork.Conn
	closed atomic.Bool
	// writes are the asynchronous writes waiting for the connection's one
	// writing goroutine (tls_output.go), under writesMu.
	writesMu sync.Mutex
	writes   []netWrite
	writing  bool
	// wake is signalled when the reading goroutine should look at a paused
	// connection again (Wake).
	wake chan struct{}
}

func newNetConn(raw net.Conn) *netConn {
	return &netConn{raw: raw, cork: tlscork.Of(raw), wake: make(chan struct{}, 1)}
}

// EventLoop is nil: a goroutine, not an event loop, serves the connection.
func (c *netConn) EventLoop() gnet.EventLoop { return nil }

func (c *netConn) Context() any         { return c.ctx }
func (c *netConn) SetContext(ctx any)   { c.ctx = ctx }
func (c *netConn) RemoteAddr() net.Addr { return c.raw.RemoteAddr() }
func (c *netConn) LocalAddr() net.Addr  { return c.raw.LocalAddr() }

// Fd is -1: there is no socket to read large frames from directly; their
// bytes come through the inbound buffer (frameAssembly.readSocket).
func (c *netConn) Fd() int { return -1 }

func (c *netConn) InboundBuffered() int { return len(c.in) }

// Peek returns the next n buffered bytes without consuming them.
func (c *netConn) Peek(n int) ([]byte, error) {
	if n > len(c.in) {
		return c.in, io.ErrShortBuffer
	}
	return c.in[:n], nil
}

// Discard consumes n buffered bytes.
func (c *netConn) Discard(n int) (int, error) {
	n = min(n, len(c.in))
	c.in = c.in[n:]
	return n, nil
}

// Read consumes buffered bytes into p.
func (c *netConn) Read(p []byte) (int, error) {
	n := copy(p, c.in)
	c.in = c.in[n:]
	return n, nil
}

// fill reads once from the connection into the room after the buffered
// bytes. Consumed bytes are dead (the server copies what it keeps before
// Discard, as with gnet's buffer), so an emptied buffer is reused.
func (c *netConn) fill() error {
	if len(c.in) == 0 {
		c.in = c.base[:0]
	}
	if cap(c.in)-len(c.in) < netReadChunk {
		grown := make([]byte, len(c.in), len(c.in)+netReadChunk)
		copy(grown, c.in)
		c.in = grown
		if cap(grown) <= maxRetainedInbound {
			c.base = grown[:0]
		}
	}
	n, err := c.raw.Read(c.in[len(c.in):cap(c.in)])
	c.in = c.in[:len(c.in)+n]
	return err
}

// fillReady takes, after a fill, the records a TLS connection already
// holds (tlscork.ReadHeld), up to maxRetainedInbound, so that a client's
// batch of requests sent a record each gets one OnTraffic and one write of
// answers.
func (c *netConn) fillReady() error {
	return tlscork.ReadHeld(c.raw, c.fill, func() bool { return len(c.in) < maxRetainedInbound })
}

// Write writes p at once (the OnTraffic answers), at most netWriteTimeout.
func (c *netConn) Write(p []byte) (int, error) { return c.writeAll([][]byte{p}) }

// writeAll writes the pieces one after the other, nothing else between
// them, at most netWriteTimeout each; a failed write closes the connection.
func (c *netConn) writeAll(pieces [][]byte) (int, error) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.cork != nil && sizeOf(pieces) > tlscork.RecordPlaintext {
		return c.writeCorked(pieces)
	}
	return c.writePieces(pieces)
}

// writeCorked writes pieces that make several TLS records with one system
// call (tlscork.Conn), at most netWriteTimeout.
func (c *netConn) writeCorked(pieces [][]byte) (int, error) {
	total, err := c.cork.Batch(func() (int, error) { return c.writePieces(pieces) })
	if err != nil && !c.closed.Load() { // the flush failed: writePieces closes on its own failures
		_ = c.Close()
		err = fmt.Errorf("write: %w", err)
	}
	return total, err
}

func sizeOf(pieces [][]byte) int {
	n := 0
	for _, p := range pieces {
		n += len(p)
	}
	return n
}

// writePieces is writeAll's loop, under writeMu.
func (c *netConn) writePieces(pieces [][]byte) (int, error) {
	total := 0
	for _, p := range pieces {
		if err := c.raw.SetWriteDeadline(time.Now().Add(netWriteTimeout)); err != nil {
			return total, fmt.Errorf("set write deadline: %w", err)
		}
		n, err := c.raw.Write(p)
		total += n
		if err != nil {
			_ = c.Close()
			return total, fmt.Errorf("write: %w", err)
		}
	}
	return total, nil
}

// AsyncWrite writes buf behind the connection's other asynchronous writes
// and then calls callback, so a worker never waits on the peer.
func (c *netConn) AsyncWrite(buf []byte, callback gnet.AsyncCallback) error {
	return c.AsyncWritev([][]byte{buf}, callback)
}

// Close closes the connection; its reading goroutine then runs OnClose.
func (c *netConn) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	if err := c.raw.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	return nil
}
