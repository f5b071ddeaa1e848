package remoting

import (
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// Bounds of the known broker addresses: how many are remembered, and for
// how long after their last registration. A broker registers every 30 s;
// ten minutes cover a broker restarting, or the network between it and
// the NameServer failing for a while.
const (
	maxKnownBrokerAddrs = 4096
	KnownBrokerMemory   = 10 * time.Minute
)

// knownBrokerAddrs remembers the IP addresses brokers registered from, so
// that a broker that reconnects (a new port, often a new connection after a
// restart of either side) is known from its connection's first byte and its
// registration may use the broker headroom, while a stranger's may not.
type knownBrokerAddrs struct {
	mu   sync.RWMutex
	seen map[netip.Addr]int64 // Unix nanos of the last registration from it
}

// note records a registration from addr at now.
func (k *knownBrokerAddrs) note(addr netip.Addr, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seen == nil {
		k.seen = make(map[netip.Addr]int64)
	}
	if _, ok := k.seen[addr]; !ok && len(k.seen) >= maxKnownBrokerAddrs {
		k.forgetOldest(now)
	}
	k.seen[addr] = now.UnixNano()
}

// forgetOldest drops the addresses not seen for KnownBrokerMemory, and the
// oldest one if none is that old; under mu.
func (k *knownBrokerAddrs) forgetOldest(now time.Time) {
	cutoff := now.Add(-KnownBrokerMemory).UnixNano()
	var oldest netip.Addr
	oldestAt := now.UnixNano() + 1
	for addr, at := range k.seen {
		if at < cutoff {
			delete(k.seen, addr)
			continue
		}
		if at < oldestAt {
			oldest, oldestAt = addr, at
		}
	}
	if len(k.seen) >= maxKnownBrokerAddrs {
		delete(k.seen, oldest)
	}
}

// known reports whether a broker registered from addr within KnownBrokerMemory.
func (k *knownBrokerAddrs) known(addr netip.Addr, now time.Time) bool {
	k.mu.RLock()
	at, ok := k.seen[addr]
	k.mu.RUnlock()
	return ok && at >= now.Add(-KnownBrokerMemory).UnixNano()
}

// remoteIP is the IP address of conn's peer, invalid when it has none.
func remoteIP(conn *Conn) netip.Addr {
	addrPort, err := netip.ParseAddrPort(conn.remoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}

// MarkBroker says a broker registered on conn: from then its requests may
// use the broker headroom and the broker share of the request memory
// (RequestMemoryBrokerHeadroom, RequestMemoryPerConnection), and so may
// those of later connections from the same IP address for KnownBrokerMemory.
// The NameServer calls it for every registration applied.
func (s *Server) MarkBroker(conn *Conn) {
	conn.knownBroker.Store(true)
	if addr := remoteIP(conn); addr.IsValid() {
		s.knownBrokers.note(addr, time.Now())
	}
}

// classify marks a new connection as a known broker's when a broker
// registered from its address lately.
func (s *Server) classify(conn *Conn, now time.Time) {
	if addr := remoteIP(conn); addr.IsValid() && s.knownBrokers.known(addr, now) {
		conn.knownBroker.Store(true)
	}
}

// KnownBroker reports whether conn counts as a known broker's for the
// request memory (see MarkBroker).
func (c *Conn) KnownBroker() bool { return c.knownBroker.Load() }

// releasePartial gives back what conn's partial small frame held at the
// end of its last read; the callback counts it again at its end, so a frame
// completed meanwhile is not counted twice (once partial, once queued).
func (s *Server) releasePartial(conn *Conn) {
	if conn.partialHeld > 0 {
		s.memory.releaseFor(conn, conn.partialHeld)
		s.memory.arriving.Add(-conn.partialHeld)
		conn.partialHeld = 0
	}
}

// unknownFrameBytes: below this many bytes (the length field and the
// header word) a frame is not known and its bytes are not counted. Under
// the 2 MB registration flood, a broker's next frame whose first read held
// fewer closed its connection when the limit was reached (issue 22); 7
// bytes a connection are bounded by the connections.
const unknownFrameBytes = frameLengthSize + headerWordSize

// holdPartial counts the bytes of a small frame that has not all arrived
// (those gnet keeps in the connection's inbound buffer) from its first
// byte: peers that each start a frame and stop would otherwise hold 64 KiB
// of buffer apiece unseen. Past the connection's share or its class's part
// of the limit the connection is closed: nothing of the frame can be
// answered yet. Unless the connection's own requests, queued or running,
// hold memory, or it registered a broker: a pipelining peer's or a
// broker's next frame is then dropped and answered SYSTEM_BUSY
// (dropPartial), as it would be had it arrived whole, however TCP split it.
// The first bytes of a frame, before its length and header word are in
// (unknownFrameBytes), wait uncounted: no frame can be told from them.
func (s *Server) holdPartial(conn *Conn, gnetConn gnet.Conn) error {
	if conn.assembly != nil || conn.outputPaused {
		return nil // a large frame counts itself; a paused connection's unread bytes are whole requests
	}
	n := int64(gnetConn.InboundBuffered())
	if n < unknownFrameBytes {
		return nil
	}
	if !s.memory.reserveFor(conn, n) {
		if (conn.requestHeld.Load() > 0 || conn.knownBroker.Load()) && s.dropPartial(conn, gnetConn, int(n)) {
			return nil
		}
		s.frameCloses[closeMemory].Add(1)
		return fmt.Errorf("partial frame of %d bytes, stranger %t: %w", n, !conn.knownBroker.Load(), ErrRequestMemory)
	}
	s.memory.arriving.Add(n)
	conn.partialHeld = n
	return nil
}

// dropPartial turns the partial small frame of buffered bytes that found no
// room into one being dropped: its header (maxKeptHeader at most, read on
// when part of it is still to come) is kept to answer SYSTEM_BUSY, what
// arrived is discarded and the rest goes the large frame's dropping way
// (dropLargeFrame). It reports false when the header is too long to keep.
func (s *Server) dropPartial(conn *Conn, gnetConn gnet.Conn, buffered int) bool {
	if buffered < unknownFrameBytes {
		return false
	}
	frame, err := gnetConn.Peek(buffered)
	if err != nil {
		return false
	}
	total, _, err := FrameLength(frame, s.cfg.MaxFrameSize)
	if err != nil {
		return false
	}
	headerEnd := bodyOffset(frame[frameLengthSize:])
	if buffered-frameLengthSize < headerEnd && headerEnd > maxKeptHeader {
		return false
	}
	header, missing := keptHeader(frame[frameLengthSize:], headerEnd)
	_, _ = gnetConn.Discard(buffered)
	size := total - frameLengthSize
	conn.assembly = &frameAssembly{size: size, filled: buffered - frameLengthSize, header: header, headerMissing: missing}
	conn.progress.started(size, time.Now())
	return true
}
