package remoting

import (
	"slices"
	"testing"

	"github.com/panjf2000/gnet/v2"
)

// Loops are numbered in the order they are first seen, each keeps one
// state, and a connection served by a goroutine (TLS) has none.
func TestLoopStatesAreNumberedInTheOrderSeen(t *testing.T) {
	s := &Server{}
	var loops [3]struct{ gnet.EventLoop }
	second, first := s.loopStateOf(&loops[1]), s.loopStateOf(&loops[0])
	if first.index != 1 || second.index != 0 || s.loopStateOf(&loops[1]) != second {
		t.Fatalf("indexes %d, %d; the same loop again gave %p, want %p", second.index, first.index, s.loopStateOf(&loops[1]), second)
	}
	if l := s.loopStateOf((&netConn{}).EventLoop()); l != nil {
		t.Fatalf("a goroutine's connection got loop state %+v", l)
	}
	first.conns.Add(3)
	second.conns.Add(1)
	if got := s.EventLoopConnections(); !slices.Equal(got, []int64{1, 3}) {
		t.Fatalf("EventLoopConnections %v, want [1 3]", got)
	}
}
