package remoting

import (
	"net"
	"sync"
)

// Bounds of a corked TLS write (tls_cork.go): tlsRecordPlaintext is the
// most a TLS record carries, so a write past it makes several records;
// maxCorked is how many record bytes collect before they go out anyway;
// maxRetainedCork the buffer a connection keeps between writes, so 10,000
// connections that once wrote a large answer do not each keep its size.
const (
	tlsRecordPlaintext = 16 << 10
	maxCorked          = 256 << 10
	maxRetainedCork    = 32 << 10
)

// corkConn is the connection under a TLS one. The TLS layer writes every
// record with a system call of its own (16 KiB of answers at most each):
// between cork and uncork the records collect here instead and go to the
// socket in one write, as the answers of one OnTraffic go out in one write
// on the gnet path. Outside, writes pass straight through (the handshake,
// alerts). mu orders the two: a close alert written while corked lands
// behind the records already collected.
type corkConn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	buf    []byte
}

func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.corked {
		return c.Conn.Write(p)
	}
	c.buf = append(c.buf, p...)
	if len(c.buf) >= maxCorked {
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// cork starts collecting the records.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork writes the records collected since cork and lets writes through.
func (c *corkConn) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	return c.flushLocked()
}

func (c *corkConn) flushLocked() error {
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.buf)
	if cap(c.buf) > maxRetainedCork {
		c.buf = nil
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// corkOf is the corkConn under a TLS connection; nil for a plain one.
func corkOf(raw net.Conn) *corkConn {
	if tlsConn, ok := raw.(interface{ NetConn() net.Conn }); ok {
		cork, _ := tlsConn.NetConn().(*corkConn)
		return cork
	}
	return nil
}
