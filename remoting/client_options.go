package remoting

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
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

// ClientTLS is the TLS configuration of a client with Java's client keys:
// without trustCertPath the server's certificate is not verified (Java's
// default, tls.client.authServer=false); with it, it must chain to those
// CAs. certPath and keyPath, when set, are the client's certificate for a
// server that asks for one.
func ClientTLS(certPath, keyPath, trustCertPath string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if trustCertPath == "" {
		cfg.InsecureSkipVerify = true // Java's default: the channel is encrypted, the server not authenticated
	} else {
		pem, err := os.ReadFile(trustCertPath)
		if err != nil {
			return nil, fmt.Errorf("tls client trust: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls client trust: no PEM certificate in %s", trustCertPath)
		}
	}
	if certPath != "" || keyPath != "" {
		pair, err := tls.LoadX509KeyPair(certPath, keyPath)
		if err != nil {
			return nil, fmt.Errorf("tls client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}
