package remoting

import (
	"sync/atomic"

	"github.com/panjf2000/gnet/v2"
)

// loopState is what the server keeps per gnet event loop: its fast-path
// header memo, and its open connections, counted so that an operator can
// see how the connections spread over the loops (a balancer that put a
// burst of them on one loop went unseen for several sessions).
type loopState struct {
	// index numbers the loops in the order they opened their first
	// connection.
	index int
	memo  *fastHeaderMemo
	conns atomic.Int64
	// signedKey is the buffer the loop builds fast-path signed keys in
	// (fastHeader.signedKey); used by the loop only.
	signedKey []byte
}

// keyScratch is the loop's signed-key buffer, grown as used; nil for no
// loop (the key is then allocated).
func (l *loopState) keyScratch() []byte {
	if l == nil {
		return nil
	}
	if l.signedKey == nil {
		l.signedKey = make([]byte, 0, 512)
	}
	return l.signedKey
}

// loopStateOf is the state of an event loop, made on first use; nil for no
// loop (a connection on a goroutine of its own). The lock is taken only the
// first time a loop is seen.
func (s *Server) loopStateOf(loop gnet.EventLoop) *loopState {
	if loop == nil {
		return nil
	}
	if l, ok := s.loops.Load(loop); ok {
		return l.(*loopState)
	}
	s.loopsMu.Lock()
	defer s.loopsMu.Unlock()
	if l, ok := s.loops.Load(loop); ok {
		return l.(*loopState)
	}
	l := &loopState{index: s.loopCount, memo: newFastHeaderMemo()}
	s.loopCount++
	s.loops.Store(loop, l)
	return l
}

// headerMemo is the loop's fast-path header memo; nil for no loop, which
// fastHeaderMemo.scan takes as "scan every header".
func (l *loopState) headerMemo() *fastHeaderMemo {
	if l == nil {
		return nil
	}
	return l.memo
}

// EventLoopConnections is the number of connections open on each event
// loop, by loop index (the order in which the loops took their first
// connection); empty before the first connection and when TLS serves the
// port on goroutines instead.
func (s *Server) EventLoopConnections() []int64 {
	var counts []int64
	s.loops.Range(func(_, value any) bool {
		l := value.(*loopState)
		for len(counts) <= l.index {
			counts = append(counts, 0)
		}
		counts[l.index] = l.conns.Load()
		return true
	})
	return counts
}
