package namesrv

import (
	"sync"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// brokerConns remembers the connections brokers registered on, so that the
// eviction job can close the connection of a broker it expires (as Java does).
// It holds one entry per registered broker connection while it is open: a
// registration that finishes after its connection closed adds nothing.
type brokerConns struct {
	mu    sync.Mutex
	conns map[route.ConnID]*remoting.Conn
}

func newBrokerConns() *brokerConns {
	return &brokerConns{conns: make(map[route.ConnID]*remoting.Conn)}
}

// remember records a connection a broker registered on, unless it has
// closed: the close listener (forget) may already have run. first says the
// connection was not remembered before (a broker connection is new).
func (b *brokerConns) remember(conn *remoting.Conn) (first bool) {
	b.mu.Lock()
	id := route.ConnID(conn.ID())
	if _, known := b.conns[id]; !known && !conn.Closed() {
		b.conns[id] = conn
		first = true
	}
	b.mu.Unlock()
	return first
}

// forget drops a closed connection; conn.Closed() is already true.
func (b *brokerConns) forget(conn *remoting.Conn) {
	b.mu.Lock()
	delete(b.conns, route.ConnID(conn.ID()))
	b.mu.Unlock()
}

// len counts the remembered connections (tests).
func (b *brokerConns) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.conns)
}

// close closes the connection with that identity, if it is still open.
func (b *brokerConns) close(id route.ConnID) {
	b.mu.Lock()
	conn := b.conns[id]
	b.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}
