package remoting

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
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
		var verify *tls.CertificateVerificationError
		if errors.As(err, &verify) {
			return nil, fmt.Errorf("tls handshake: the server's certificate does not verify against the trusted CAs (tls.client.trustCertPath): %w", err)
		}
		var record tls.RecordHeaderError
		if errors.As(err, &record) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
			return nil, fmt.Errorf("tls handshake (does the server speak TLS? tls.server.mode): %w", err)
		}
		return nil, fmt.Errorf("tls handshake: %w", err)
	}
	return tlsConn, nil
}

// serverNamed is cfg for a client of addr: without a ServerName of its own
// it gets addr's host, which the server's certificate is then verified for
// (Go's TLS refuses to verify a certificate for no name at all). A client
// that dials 127.0.0.1:9876 thus wants a certificate for the IP 127.0.0.1,
// one that dials ns1.example:9876 a certificate for ns1.example.
func serverNamed(cfg *tls.Config, addr string) *tls.Config {
	if cfg == nil || cfg.ServerName != "" {
		return cfg
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	named := cfg.Clone()
	named.ServerName = host
	return named
}

// closedBeforeAnswer is the failure of a plain session the server closed
// before it answered anything: what a server that enforces TLS does to a
// client that does not speak it (it reads the first bytes, sees no TLS
// handshake and closes), so the error says so.
func closedBeforeAnswer(cause error) error {
	return fmt.Errorf("%w: the server closed the connection before any answer (%v); "+
		"a server with tls.server.mode=enforcing does this to a client without TLS: %w", ErrConnectionClosed, cause, ErrTLSRequired)
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
