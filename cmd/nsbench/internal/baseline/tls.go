package baseline

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/internal/tlscork"
)

// tlsReadChunk is the room of one read of a TLS baseline connection.
const tlsReadChunk = 64 << 10

// StartTLS is Start over TLS (and plain TCP for a connection that opens no
// handshake) with the certificate and key of certFile and keyFile: the zero-work server of the TLS measurements, what a client's
// TLS costs the load generator with a server that does nothing else. A
// goroutine per connection reads what the TLS layer has, answers every
// complete request as the gnet baseline does (the same leanHandler), and
// writes the answers of one read with one write.
func StartTLS(addr string, spec load.LayoutSpec, certFile, keyFile string, log *logrus.Entry) (*Server, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("baseline TLS certificate: %w", err)
	}
	config := &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("baseline on %s: %w", addr, err)
	}
	h := &leanHandler{answers: newAnswers(load.NewLayout(spec)), log: log}
	s := &Server{addr: ln.Addr().String(), listener: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Store(conn, struct{}{})
			go func() {
				defer s.conns.Delete(conn)
				h.serveTLS(permissive(conn, config))
			}()
		}
	}()
	return s, nil
}

// permissive is conn over TLS when its first byte opens a TLS handshake,
// plain otherwise (the seeding brokers), as the NameServer's
// tls.server.mode=permissive.
func permissive(conn net.Conn, config *tls.Config) net.Conn {
	buffered := bufio.NewReaderSize(conn, 16) // the smallest: reads past it go to the socket directly
	first, err := buffered.Peek(1)
	peeked := &peekedConn{Conn: conn, reader: buffered}
	if err != nil || first[0] != tlsHandshakeRecord {
		return peeked
	}
	return tls.Server(&tlscork.Conn{Conn: peeked}, config)
}

// tlsHandshakeRecord is the first byte of a TLS connection.
const tlsHandshakeRecord = 0x16

// peekedConn reads through the buffer that holds the peeked byte.
type peekedConn struct {
	net.Conn
	reader *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.reader.Read(p) }

// serveTLS runs one connection until it closes.
func (h *leanHandler) serveTLS(conn net.Conn) {
	defer conn.Close()
	c := &bufferedConn{}
	lc := &leanConn{}
	cork := tlscork.Of(conn)
	var base []byte // the buffer c.in starts in, reused once it is consumed
	read := func() error {
		if len(c.in) == 0 {
			c.in = base[:0]
		}
		if cap(c.in)-len(c.in) < tlsReadChunk {
			grown := make([]byte, len(c.in), len(c.in)+tlsReadChunk)
			copy(grown, c.in)
			c.in, base = grown, grown[:0]
		}
		n, err := conn.Read(c.in[len(c.in):cap(c.in)])
		c.in = c.in[:len(c.in)+n]
		return err
	}
	for {
		// as the NameServer's TLS path does: every record the TLS layer
		// holds, then the answers with one system call
		err := read()
		if err == nil {
			err = tlscork.ReadHeld(conn, read, func() bool { return len(c.in) < tlsReadChunk })
		}
		out := lc.out[:0]
		for {
			var progressed bool
			var bad error
			if out, progressed, bad = h.next(c, lc, out); bad != nil {
				h.log.WithError(bad).Warn("bad input, closing the connection")
				return
			}
			if !progressed {
				break
			}
		}
		if len(out) > 0 {
			if _, werr := tlscork.WriteCorked(conn, cork, out); werr != nil {
				return
			}
		}
		lc.out = out[:0]
		if err != nil {
			if !errors.Is(err, io.EOF) {
				h.log.WithError(err).Debug("read failed")
			}
			return
		}
	}
}

// bufferedConn is the inbound side of gnet.Conn that leanHandler.next
// reads, over the bytes a TLS connection handed out.
type bufferedConn struct {
	gnet.Conn
	in []byte
}

func (c *bufferedConn) InboundBuffered() int { return len(c.in) }

func (c *bufferedConn) Peek(n int) ([]byte, error) {
	if n > len(c.in) {
		return c.in, io.ErrShortBuffer
	}
	return c.in[:n], nil
}

func (c *bufferedConn) Discard(n int) (int, error) {
	n = min(n, len(c.in))
	c.in = c.in[n:]
	return n, nil
}

// closeTLS stops a TLS baseline: the listener, then every connection.
func (s *Server) closeTLS() error {
	err := s.listener.Close()
	s.conns.Range(func(conn, _ any) bool {
		_ = conn.(net.Conn).Close()
		return true
	})
	return err
}
