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
type requestMemory struct {
	held  atomic.Int64
	limit int64
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

// releaseRequest gives back what request held (see Command.heldBytes).
func (m *requestMemory) releaseRequest(request *Command) {
	m.release(request.heldBytes)
	request.heldBytes = 0
}
