package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"
)

// Estimated bytes a heavy view holds per item of the tables (its snapshot
// copy and what it encodes before the bytes leave): measured on the
// /v1/debug dump of 40,000 topics, rounded up.
const (
	heavyBytesPerTopic     = 192
	heavyBytesPerQueueData = 128
	heavyBytesPerBroker    = 1 << 10
	// heavyKVBytes is a copy of the whole KV store, whose file the store
	// keeps under 8 MiB (kvconfig), as maps.
	heavyKVBytes = 16 << 20
	// heavyRouteBytes is one topic's route as Java encodes it.
	heavyRouteBytes = 1 << 20
)

// heavyGate runs the views whose cost grows with the tables (the whole
// dump, the unpaged lists, a route in Java's encoding) a few at a time and
// within a memory budget: 64 slow readers of /v1/debug then hold two
// dumps, not 64, and a probe or a paged view never waits for them.
type heavyGate struct {
	slots   chan struct{}
	limit   int64
	held    atomic.Int64
	refused atomic.Uint64
}

func newHeavyGate(views int, memory int64) *heavyGate {
	return &heavyGate{slots: make(chan struct{}, views), limit: memory}
}

// reserve takes n bytes of the budget. One view larger than the whole
// budget runs when it is alone, so that every view can be served.
func (g *heavyGate) reserve(n int64) bool {
	for {
		held := g.held.Load()
		if held > 0 && held+n > g.limit {
			return false
		}
		if g.held.CompareAndSwap(held, held+n) {
			return true
		}
	}
}

// heavy runs h within the gate, answering 503 with Retry-After at once
// when every slot is taken or the budget is spent; estimate says what h
// will hold.
func (s *Server) heavy(estimate func(*Source, *http.Request) int64, h func(*Source, http.ResponseWriter, *http.Request)) func(*Source, http.ResponseWriter, *http.Request) {
	return func(src *Source, w http.ResponseWriter, r *http.Request) {
		g := s.heavyViews
		select {
		case g.slots <- struct{}{}:
			defer func() { <-g.slots }()
		default:
			g.refused.Add(1)
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("busy: %d heavy views are being served (httpHeavyViewConcurrency); retry", cap(g.slots)))
			return
		}
		need := estimate(src, r)
		if !g.reserve(need) {
			g.refused.Add(1)
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, "busy: the heavy views being served hold "+strconv.FormatInt(g.held.Load(), 10)+
				" of "+strconv.FormatInt(g.limit, 10)+" bytes (httpHeavyViewMemoryLimit); retry")
			return
		}
		defer g.held.Add(-need)
		h(src, w, r)
	}
}

// debugEstimate is what the dump holds: its copies of the broker and topic
// tables (the answer itself is streamed).
func debugEstimate(src *Source, _ *http.Request) int64 {
	c := src.Routes.Counts()
	return int64(c.Topics)*heavyBytesPerTopic + int64(c.QueueDatas)*heavyBytesPerQueueData + int64(c.LiveBrokers)*heavyBytesPerBroker
}

// clustersEstimate is the cluster table with every broker group.
func clustersEstimate(src *Source, _ *http.Request) int64 {
	return int64(src.Routes.Counts().BrokerGroups) * heavyBytesPerBroker
}

func kvEstimate(*Source, *http.Request) int64 { return heavyKVBytes }

func routeEstimate(*Source, *http.Request) int64 { return heavyRouteBytes }

// HeavyViewsRefused counts heavy views answered 503 for the gate.
func (s *Server) HeavyViewsRefused() uint64 { return s.heavyViews.refused.Load() }

// HeavyViewMemory is the bytes the heavy views in flight hold (estimated).
func (s *Server) HeavyViewMemory() int64 { return s.heavyViews.held.Load() }
