package remoting

import (
	"errors"
	"net"
	"time"

	"github.com/panjf2000/gnet/v2"

	"github.com/gonamesrv/gonamesrv/internal/tlscork"
)

// errNoSocket answers the gnet.Conn calls that need gnet's own socket.
var errNoSocket = errors.New("remoting: not a gnet connection (TLS path)")

// The rest of gnet.Conn that server code might reasonably call, so that a
// later use on the TLS path answers sensibly instead of reaching the nil
// embedded interface. Writes are immediate here: nothing is ever left
// buffered for output.

func (c *netConn) Next(n int) ([]byte, error) {
	buf, err := c.Peek(n)
	if err != nil {
		return buf, err
	}
	c.in = c.in[len(buf):]
	return buf, nil
}

func (c *netConn) Writev(bs [][]byte) (int, error) { return c.writeAll(bs) }

func (c *netConn) Flush() error          { return nil }
func (c *netConn) OutboundBuffered() int { return 0 }
func (c *netConn) Dup() (int, error)     { return -1, errNoSocket }

func (c *netConn) SetDeadline(t time.Time) error      { return c.raw.SetDeadline(t) }
func (c *netConn) SetReadDeadline(t time.Time) error  { return c.raw.SetReadDeadline(t) }
func (c *netConn) SetWriteDeadline(t time.Time) error { return c.raw.SetWriteDeadline(t) }

// tcp is the TCP connection under the TLS one, for the socket options.
func (c *netConn) tcp() *net.TCPConn {
	raw := c.raw
	if tlsConn, ok := raw.(interface{ NetConn() net.Conn }); ok {
		raw = tlsConn.NetConn()
	}
	if cork, ok := raw.(*tlscork.Conn); ok {
		raw = cork.Conn
	}
	if peeked, ok := raw.(*peekedConn); ok {
		raw = peeked.Conn
	}
	tcp, _ := raw.(*net.TCPConn)
	return tcp
}

func (c *netConn) SetReadBuffer(size int) error {
	if tcp := c.tcp(); tcp != nil {
		return tcp.SetReadBuffer(size)
	}
	return errNoSocket
}

func (c *netConn) SetWriteBuffer(size int) error {
	if tcp := c.tcp(); tcp != nil {
		return tcp.SetWriteBuffer(size)
	}
	return errNoSocket
}

func (c *netConn) SetNoDelay(noDelay bool) error {
	if tcp := c.tcp(); tcp != nil {
		return tcp.SetNoDelay(noDelay)
	}
	return errNoSocket
}

func (c *netConn) SetKeepAlivePeriod(d time.Duration) error {
	if tcp := c.tcp(); tcp != nil {
		return tcp.SetKeepAlivePeriod(d)
	}
	return errNoSocket
}

func (c *netConn) CloseWithCallback(callback gnet.AsyncCallback) error {
	err := c.Close()
	if callback != nil {
		_ = callback(c, err)
	}
	return err
}
