package remoting

import (
	"slices"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/monotime"
)

// Observer receives the server's events, for metrics. Its methods run on the
// event loops and the workers, once per connection or request: they must be
// cheap (an atomic add, no lock, no allocation) and never block.
type Observer interface {
	// ConnOpened and ConnClosed see every accepted connection open and close.
	ConnOpened(conn *Conn)
	ConnClosed(conn *Conn)
	// Answered sees every request that was answered or dropped: its request
	// code, the code of the answer (NoAnswer for a handler that returned
	// none), the handler's time (0 when no handler ran: GO_AWAY, SYSTEM_BUSY,
	// an unknown code) and the bytes of the answer frame written (0 for a
	// one-way request).
	Answered(requestCode, responseCode int32, handlerTime time.Duration, responseBytes int)
	// Busy sees every request answered SYSTEM_BUSY, with the pool that was
	// full ("" the default pool; also "" when the request memory limit was
	// reached before a pool was chosen).
	Busy(pool string)
}

// NoAnswer is the response code Observer.Answered is given when the handler
// returned no answer.
const NoAnswer int32 = -1

// noObserver is the Observer of a server that was given none.
type noObserver struct{}

func (noObserver) ConnOpened(*Conn)                          {}
func (noObserver) ConnClosed(*Conn)                          {}
func (noObserver) Answered(int32, int32, time.Duration, int) {}
func (noObserver) Busy(string)                               {}

// SetObserver installs o (nil: none). Call it before Start: the event loops
// read it without synchronisation.
func (s *Server) SetObserver(o Observer) { s.observer = o }

// observe is the installed Observer, or one that ignores everything.
func (s *Server) observe() Observer {
	if s.observer == nil {
		return noObserver{}
	}
	return s.observer
}

// monotonicNanos is the runtime's monotonic clock (monotime.Nanotime): one
// clock read, where time.Now takes two (wall and monotonic); timing every
// request with it halves what the handler-time metric costs the route query
// path.
func monotonicNanos() int64 { return monotime.Nanotime() }

// answered reports one request to the observer; started is monotonicNanos
// when its handler began, 0 when none ran.
func (s *Server) answered(request, response *Command, started int64, frameBytes int) {
	code := NoAnswer
	if response != nil {
		code = response.Code
	}
	var took time.Duration
	if started != 0 {
		took = time.Duration(monotonicNanos() - started)
	}
	s.observe().Answered(request.Code, code, took, frameBytes)
}

// PoolStat is the state of one worker pool, read at scrape time.
type PoolStat struct {
	Name     string // "" is the default pool
	Queued   int    // jobs waiting for a worker
	Capacity int    // bound of the queue
}

// PoolStats returns every worker pool's queue depth, default pool first;
// nil before Start.
func (s *Server) PoolStats() []PoolStat {
	stats := make([]PoolStat, 0, len(s.pools))
	for name, pool := range s.pools {
		stats = append(stats, PoolStat{Name: name, Queued: len(pool.jobs), Capacity: cap(pool.jobs)})
	}
	slices.SortFunc(stats, func(a, b PoolStat) int { return strings.Compare(a.Name, b.Name) })
	return stats
}

// RequestMemory returns the request bytes held now and their limit
// (requestMemoryLimit).
func (s *Server) RequestMemory() (held, limit int64) {
	return s.memory.held.Load(), s.memory.limit
}

// RequestCodes lists every request code with a name (RequestCodeName), in
// increasing order, so an observer can resolve its labels once.
func RequestCodes() []int32 {
	codes := make([]int32, 0, len(requestCodeNames))
	for code := range requestCodeNames {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return codes
}
