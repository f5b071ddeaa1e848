package remoting

import (
	"fmt"
	"net/netip"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// lastConnID numbers connections for the process lifetime; IDs are never
// reused, so a close listener can tell a broker's old connection from its new one.
var lastConnID atomic.Uint64

// maxRetainedOutBuffer bounds the per-connection response buffer kept
// between callbacks; larger ones are dropped after use.
const maxRetainedOutBuffer = 64 << 10

// Conn is one accepted connection. Its methods are safe from any goroutine.
type Conn struct {
	id         uint64
	gnetConn   gnet.Conn
	remoteAddr string
	localAddr  string
	// lastActiveNanos is the Unix time of the last read or write, for the
	// idle check.
	lastActiveNanos atomic.Int64
	closed          atomic.Bool
	// partialSinceNanos is the Unix time since which part of a frame has
	// been waiting for the rest, 0 when none is; the idle scan closes a
	// connection whose frame takes longer than the idle timeout.
	partialSinceNanos atomic.Int64
	// idleClosing is set once the idle scan asked to close the connection.
	idleClosing atomic.Bool
	attached    atomic.Pointer[attachedValue]
	// accessMemo is the access checker's memo of this connection
	// (AccessMemo), made on first use.
	accessMemo atomic.Pointer[attachedValue]
	// outBuffer collects the responses of one OnTraffic callback so they go
	// out in one write; used on the event loop only.
	outBuffer []byte
	// outputPaused says its requests are left unread until its peer reads
	// its answers (outbound_limit.go); used on the event loop only.
	outputPaused bool
	// heldInbound is what was left unread at the end of the last callback.
	heldInbound int
	// assembly is the large frame being read, nil between frames; used on
	// the event loop only.
	assembly *frameAssembly
	// knownBroker says a broker registered on it or from its address
	// lately (MarkBroker); requestHeld is what it holds of the request
	// memory, against its share; partialHeld the part a small frame not all
	// arrived holds, event loop only (request_memory_share.go).
	knownBroker atomic.Bool
	requestHeld atomic.Int64
	partialHeld int64
	// progress is its large frame's, for the rate check (frame_rate.go).
	progress frameProgress
	// arrivals counts the requests dispatched (arrival.go); event loop only.
	arrivals uint64
	// onPools counts its requests queued or running on a worker pool; a
	// TryFirst handler is tried only while it is 0.
	onPools atomic.Int32
	// poolOut holds its worker answers until its event loop writes them
	// (pool_answers.go).
	poolOut poolAnswerQueue
	// loop is the state of the connection's event loop (its header memo,
	// its connection count), shared with the loop's other connections; nil
	// for a connection served outside gnet's loops.
	loop *loopState
}

// attachedValue boxes the value of SetContext for atomic storage.
type attachedValue struct{ value any }

func newConn(gnetConn gnet.Conn, now time.Time) *Conn {
	conn := &Conn{
		id:       lastConnID.Add(1),
		gnetConn: gnetConn,
	}
	if addr := gnetConn.RemoteAddr(); addr != nil {
		conn.remoteAddr = addr.String()
	}
	conn.localAddr = socketLocalAddr(gnetConn)
	conn.touch(now)
	return conn
}

// socketLocalAddr asks the kernel for our side's address: gnet reports the
// listener's configured address, which says port 0 when bound to ":0" and
// 0.0.0.0 when bound to all interfaces.
func socketLocalAddr(gnetConn gnet.Conn) string {
	if sockaddr, err := syscall.Getsockname(gnetConn.Fd()); err == nil {
		switch addr := sockaddr.(type) {
		case *syscall.SockaddrInet4:
			return netip.AddrPortFrom(netip.AddrFrom4(addr.Addr), uint16(addr.Port)).String()
		case *syscall.SockaddrInet6:
			return netip.AddrPortFrom(netip.AddrFrom16(addr.Addr), uint16(addr.Port)).String()
		}
	}
	if addr := gnetConn.LocalAddr(); addr != nil {
		return addr.String()
	}
	return ""
}

// ID returns the connection's process-unique number.
func (c *Conn) ID() uint64 { return c.id }

// RemoteAddr returns the peer's address as "ip:port".
func (c *Conn) RemoteAddr() string { return c.remoteAddr }

// LocalAddr returns our side's address as "ip:port".
func (c *Conn) LocalAddr() string { return c.localAddr }

// SetContext attaches a value to the connection (for example the broker
// that registered on it).
func (c *Conn) SetContext(value any) { c.attached.Store(&attachedValue{value: value}) }

// Context returns the value given to SetContext, or nil.
func (c *Conn) Context() any {
	if boxed := c.attached.Load(); boxed != nil {
		return boxed.value
	}
	return nil
}

// AccessMemo returns the value the access checker keeps for this
// connection (its memo of verified signatures), made by create on first
// use; every caller gets the same value.
func (c *Conn) AccessMemo(create func() any) any {
	if boxed := c.accessMemo.Load(); boxed != nil {
		return boxed.value
	}
	c.accessMemo.CompareAndSwap(nil, &attachedValue{value: create()})
	return c.accessMemo.Load().value
}

// Close closes the connection; the server's close listeners then run once.
func (c *Conn) Close() error {
	if c.closed.Load() {
		return nil
	}
	if err := c.gnetConn.Close(); err != nil {
		return fmt.Errorf("close connection %d to %s: %w", c.id, c.remoteAddr, err)
	}
	return nil
}

// Closed reports whether the connection has closed. It is set before the
// server's close listeners run, so work that checks it after a listener has
// seen the close always sees true.
func (c *Conn) Closed() bool { return c.closed.Load() }

// String names the connection in logs.
func (c *Conn) String() string { return fmt.Sprintf("conn#%d(%s)", c.id, c.remoteAddr) }

func (c *Conn) touch(now time.Time) { c.lastActiveNanos.Store(now.UnixNano()) }

// idleSince reports whether nothing was read or written since cutoff.
func (c *Conn) idleSince(cutoff time.Time) bool {
	return c.lastActiveNanos.Load() < cutoff.UnixNano()
}

// notePartialFrame records, at the end of a read, whether part of a frame
// is waiting for the rest: the time it started waiting is kept until the
// frame is whole.
func (c *Conn) notePartialFrame(partial bool, now time.Time) {
	switch {
	case !partial:
		c.partialSinceNanos.Store(0)
	case c.partialSinceNanos.Load() == 0:
		c.partialSinceNanos.Store(now.UnixNano())
	}
}

// frameStalledSince reports whether a frame has been waiting for the rest of
// its bytes since before cutoff. Bytes trickling in keep a connection from
// being idle; they do not keep one frame open for longer than the idle
// timeout, holding its memory.
func (c *Conn) frameStalledSince(cutoff time.Time) bool {
	since := c.partialSinceNanos.Load()
	return since != 0 && since < cutoff.UnixNano()
}

// asyncWrite queues frame for writing from any goroutine; done runs exactly
// once, after the write or its failure. A body, when not nil, goes out
// behind frame in the same write (a header and the shared body it frames).
func (c *Conn) asyncWrite(frame, body []byte, done func()) error {
	if c.closed.Load() {
		done()
		return fmt.Errorf("write to %s: %w", c, ErrConnectionClosed)
	}
	c.touch(time.Now())
	written := func(gnet.Conn, error) error {
		done()
		return nil
	}
	var err error
	if body == nil {
		err = c.gnetConn.AsyncWrite(frame, written)
	} else {
		err = c.gnetConn.AsyncWritev([][]byte{frame, body}, written)
	}
	if err != nil {
		done()
		return fmt.Errorf("write to %s: %w", c, err)
	}
	return nil
}
