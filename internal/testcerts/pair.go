package testcerts

import (
	"crypto/tls"
	"fmt"
	"net"
	"sync/atomic"
)

// LoopbackPair is one TLS connection over loopback TCP, handshake done,
// for a test of what travels under TLS: each side's TCP connection goes
// through wrapServer and wrapClient first (nil: as it is), so a test can
// count or hold the bytes below the records. The caller closes both.
func LoopbackPair(dir string, wrapServer, wrapClient func(net.Conn) net.Conn) (server, client *tls.Conn, err error) {
	certs, err := Write(dir)
	if err != nil {
		return nil, nil, err
	}
	pair, err := tls.LoadX509KeyPair(certs.ServerCert, certs.ServerKey)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return nil, nil, err
	}
	side := <-accepted
	if side == nil {
		raw.Close()
		return nil, nil, fmt.Errorf("loopback pair: accept failed")
	}
	if wrapServer != nil {
		side = wrapServer(side)
	}
	if wrapClient != nil {
		raw = wrapClient(raw)
	}
	server = tls.Server(side, &tls.Config{Certificates: []tls.Certificate{pair}})
	client = tls.Client(raw, certs.ClientTLS(false))
	handshake := make(chan error, 1)
	go func() { handshake <- server.Handshake() }()
	if err := client.Handshake(); err != nil {
		server.Close()
		return nil, nil, fmt.Errorf("loopback pair: client handshake: %w", err)
	}
	if err := <-handshake; err != nil {
		client.Close()
		return nil, nil, fmt.Errorf("loopback pair: server handshake: %w", err)
	}
	return server, client, nil
}

// CountingConn counts the writes that reach the connection under it (for
// LoopbackPair's wrappers: how many system calls the records took).
type CountingConn struct {
	net.Conn
	Writes atomic.Int64
}

func (c *CountingConn) Write(p []byte) (int, error) {
	c.Writes.Add(1)
	return c.Conn.Write(p)
}
