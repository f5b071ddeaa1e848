package namesrv

import (
	"sync"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// brokerConns remembers the connections brokers registered on, so that the
// eviction job can close the connection of a broker it expires (as Java does).
// It holds one entry per registered broker connection and forgets it on close.
type brokerConns struct {
	mu    sync.Mutex
	conns map[route.ConnID]*remoting.Conn
}

func newBrokerConns() *brokerConns {
	return &brokerConns{conns: make(map[route.ConnID]*remoting.Conn)}
}

func (b *brokerConns) remember(conn *remoting.Conn) {
	b.mu.Lock()
	b.conns[route.ConnID(conn.ID())] = conn
	b.mu.Unlock()
}

func (b *brokerConns) forget(conn *remoting.Conn) {
	b.mu.Lock()
	delete(b.conns, route.ConnID(conn.ID()))
	b.mu.Unlock()
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
