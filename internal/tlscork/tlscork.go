// Package tlscork batches the records of a TLS connection into fewer
// system calls: Conn, under a tls.Conn, collects the records of a write
// and sends them with one system call; ReadHeld lets a reader take the
// records the TLS layer already holds without waiting. The
// NameServer's TLS path (remoting) and nsbench's TLS baseline share them.
package tlscork

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// Bounds of a corked TLS write: RecordPlaintext is the most a TLS record
// carries, so a write past it makes several records; maxCorked is how many
// record bytes collect before they go out anyway; maxRetainedCork the
// buffer a connection keeps between writes, so 10,000 connections that once
// wrote a large answer do not each keep its size.
const (
	RecordPlaintext = 16 << 10
	maxCorked       = 256 << 10
	maxRetainedCork = 32 << 10
)

// PastDeadline is a read deadline already passed: a read of a TLS
// connection under it returns at once what the TLS layer holds (a record
// read from the socket with an earlier one), or a timeout, without a system
// call; the timeout leaves the connection usable (a partial record stays
// buffered).
var PastDeadline = time.Unix(1, 0)

// Conn is the connection under a TLS one. The TLS layer writes every
// record with a system call of its own (16 KiB of answers at most each):
// between cork and uncork the records collect here instead and go to the
// socket in one write, as the answers of one OnTraffic go out in one write
// on the NameServer's gnet path. Outside, writes pass straight through (the
// handshake, alerts). mu guards corked and buf.
type Conn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	buf    []byte
}

func (c *Conn) Write(p []byte) (int, error) {
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

// Cork starts collecting the records.
func (c *Conn) Cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// Uncork writes the records collected since Cork and lets writes through.
// The socket write runs outside mu, so that a close alert (tls.Conn.Close
// from another goroutine) is not held behind a peer that stopped reading:
// it goes before or after the whole batch, never inside it (one Write of a
// net.Conn is not split by another).
func (c *Conn) Uncork() error {
	c.mu.Lock()
	c.corked = false
	buf := c.buf
	c.buf = nil
	c.mu.Unlock()
	if len(buf) == 0 {
		c.keep(buf)
		return nil
	}
	_, err := c.Conn.Write(buf)
	c.keep(buf)
	return err
}

// keep gives buf back for the next batch, unless it grew past
// maxRetainedCork or another batch took its place.
func (c *Conn) keep(buf []byte) {
	if cap(buf) > maxRetainedCork {
		return
	}
	c.mu.Lock()
	if c.buf == nil {
		c.buf = buf[:0]
	}
	c.mu.Unlock()
}

// flushLocked writes the records collected so far, under mu: only while
// corked, from inside the TLS layer's own Write (which holds its lock, so no
// close alert can come meanwhile: Close then closes the socket directly).
func (c *Conn) flushLocked() error {
	_, err := c.Conn.Write(c.buf)
	c.buf = c.buf[:0]
	return err
}

// Of is the Conn under a TLS connection; nil for a plain one.
func Of(conn net.Conn) *Conn {
	if tlsConn, ok := conn.(interface{ NetConn() net.Conn }); ok {
		cork, _ := tlsConn.NetConn().(*Conn)
		return cork
	}
	return nil
}

// WriteCorked writes p to a TLS connection over a Conn (cork) with one
// system call however many records it makes; over another connection (cork
// nil) as it is.
func WriteCorked(conn net.Conn, cork *Conn, p []byte) (int, error) {
	if cork == nil || len(p) <= RecordPlaintext {
		return conn.Write(p)
	}
	return cork.Batch(func() (int, error) { return conn.Write(p) })
}

// Batch runs write corked: the records it makes go out with one system
// call once it returns (its error first, then the flush's).
func (c *Conn) Batch(write func() (int, error)) (int, error) {
	c.Cork()
	n, err := write()
	if uncorked := c.Uncork(); uncorked != nil && err == nil {
		err = uncorked
	}
	return n, err
}

// ReadHeld calls read, after a read of a TLS connection, while the TLS
// layer holds more records and room says there is room: it reads every
// byte the socket has in one system call but hands them out a record at a
// time, so a client that writes a record per request would otherwise get
// a read, and a write of answers, per request. The reads run under
// PastDeadline, never waiting. A plain connection's one read already took
// what the socket had: nothing is done. The error is a read's other than
// the timeout (the peer closed meanwhile).
func ReadHeld(conn net.Conn, read func() error, room func() bool) error {
	if _, ok := conn.(*tls.Conn); !ok {
		return nil
	}
	if err := conn.SetReadDeadline(PastDeadline); err != nil {
		return fmt.Errorf("set read deadline: %w", err)
	}
	var err error
	for room() {
		if err = read(); err != nil {
			break
		}
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = nil
	}
	if clear := conn.SetReadDeadline(time.Time{}); clear != nil && err == nil {
		err = fmt.Errorf("clear read deadline: %w", clear)
	}
	return err
}
