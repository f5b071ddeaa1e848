package remoting

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
)

// dial opens the client's connection: TCP from LocalAddr when set, then a
// TLS handshake when TLS is set, both within ctx.
func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	dialer := net.Dialer{LocalAddr: c.cfg.LocalAddr}
	netConn, err := dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil || c.cfg.TLS == nil {
		return netConn, err
	}
	tlsConn := tls.Client(netConn, c.cfg.TLS)
	if err := tlsConn.HandshakeContext(ctx); err != nil {
		_ = netConn.Close()
		return nil, fmt.Errorf("tls handshake: %w", err)
	}
	return tlsConn, nil
}
