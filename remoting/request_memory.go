package remoting

import "sync/atomic"

// DefaultRequestMemoryLimit bounds the bytes of request frames the server
// holds at once (1 GiB): large frames being read, and requests waiting for
// or running on a slow worker. 400 brokers registering 2 MB bodies at the
// same moment fit.
const DefaultRequestMemoryLimit = 1 << 30

// requestMemory counts the bytes of request frames the server holds, so
// that a flood of large requests (registrations of megabytes each, sent
// faster than they are applied, or pipelined on one connection) cannot
// grow the slow queue until the process runs out of memory. Past the
// limit a request is answered SYSTEM_BUSY (its bytes are read and
// dropped), as Java answers a full queue; the connection stays open, so a
// broker keeps its routes and registers again on its next period.
//
// A frame counts from its first byte, small ones too (request_memory_share.go),
// so peers that start frames and stall cannot hold memory uncounted; and
// what a connection may take depends on whether it is a known broker's:
// the others (strangers) stop at limit minus the broker headroom, and each
// connection at its share, so idle strangers cannot take the room the
// brokers' registrations need.
type requestMemory struct {
	held  atomic.Int64
	limit int64
	// strangerLimit is what held may reach for a stranger's reservation:
	// limit minus the broker headroom.
	strangerLimit int64
	// brokerShare and strangerShare bound what one connection holds (its
	// frame being read plus its requests queued or running); 0: no bound.
	brokerShare, strangerShare int64
	// arriving is the part of held that frames still arriving hold.
	arriving atomic.Int64
}

// newRequestMemory sets the limits of cfg (with its defaults filled).
func newRequestMemory(cfg ServerConfig) requestMemory {
	return requestMemory{
		limit:         cfg.RequestMemoryLimit,
		strangerLimit: cfg.RequestMemoryLimit - cfg.RequestMemoryBrokerHeadroom,
		brokerShare:   cfg.RequestMemoryPerConnection,
		strangerShare: cfg.RequestMemoryPerStranger,
	}
}

// reserve counts n more bytes unless that would pass the limit.
func (m *requestMemory) reserve(n int64) bool {
	if n <= 0 {
		return true
	}
	if m.held.Add(n) > m.limit {
		m.held.Add(-n)
		return false
	}
	return true
}

// release gives back n counted bytes.
func (m *requestMemory) release(n int64) {
	if n > 0 {
		m.held.Add(-n)
	}
}

// reserveFor counts n more bytes held for conn unless that would pass its
// share or what its class may take of the limit; conn nil counts against
// the limit alone.
func (m *requestMemory) reserveFor(conn *Conn, n int64) bool {
	if conn == nil {
		return m.reserve(n)
	}
	if n <= 0 {
		return true
	}
	share, limit := m.strangerShare, m.strangerLimit
	if conn.knownBroker.Load() {
		share, limit = m.brokerShare, m.limit
	}
	if held := conn.requestHeld.Add(n); share > 0 && held > share {
		conn.requestHeld.Add(-n)
		return false
	}
	if m.held.Add(n) > limit {
		m.held.Add(-n)
		conn.requestHeld.Add(-n)
		return false
	}
	return true
}

// releaseFor gives back n bytes counted by reserveFor for conn.
func (m *requestMemory) releaseFor(conn *Conn, n int64) {
	if n <= 0 {
		return
	}
	if conn != nil {
		conn.requestHeld.Add(-n)
	}
	m.held.Add(-n)
}

// releaseRequest gives back what request held (see Command.heldBytes).
func (m *requestMemory) releaseRequest(request *Command) {
	m.releaseFor(request.heldBy, request.heldBytes)
	request.heldBytes, request.heldBy = 0, nil
}
