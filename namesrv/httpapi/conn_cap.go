package httpapi

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/quiet"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// capListener bounds the side port's open connections (Options.MaxConnections)
// so that they alone cannot use up the process's file descriptors, which
// the KV store, the config file and the certificates need too. At the cap
// a new connection closes the oldest quiet one (connected and silent, or
// idle between requests, for QuietEvictAge at least), or, when there is
// none, is closed itself at once and counted.
type capListener struct {
	net.Listener
	limit   int64
	open    atomic.Int64
	refused atomic.Uint64
	quiet   quiet.Queue
	log     *logrus.Entry
	warn    ratelog.Limiter

	mu      sync.Mutex
	entries map[net.Conn]*quiet.Entry // by the conn http.Server's ConnState sees
}

func newCapListener(inner net.Listener, limit int, log *logrus.Entry) *capListener {
	return &capListener{Listener: inner, limit: int64(limit), log: log, entries: map[net.Conn]*quiet.Entry{}}
}

// Accept returns the next connection within the cap.
func (l *capListener) Accept() (net.Conn, error) {
	for {
		raw, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Load() >= l.limit {
			l.quiet.Evict(time.Now().Add(-QuietEvictAge))
		}
		if l.open.Add(1) > l.limit {
			l.open.Add(-1)
			l.refused.Add(1)
			l.warn.Log(l.log, logrus.WarnLevel, func() logrus.Fields {
				return logrus.Fields{"remote": raw.RemoteAddr().String(), "httpMaxConnections": l.limit, "refusedTotal": l.refused.Load()}
			}, "http side port: connection limit reached, closing new connection", time.Now())
			_ = raw.Close()
			continue
		}
		return &countedConn{Conn: raw, open: &l.open}, nil
	}
}

// connState follows each connection (http.Server.ConnState): quiet while
// new or idle, not while a request is being served.
func (l *capListener) connState(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	old := l.entries[c]
	delete(l.entries, c)
	l.mu.Unlock()
	l.quiet.Remove(old)
	if state != http.StateNew && state != http.StateIdle {
		return
	}
	raw := c
	if tlsConn, ok := c.(interface{ NetConn() net.Conn }); ok {
		raw = tlsConn.NetConn() // closing it skips a close_notify to a peer that may not read
	}
	entry := l.quiet.Add(time.Now(), nil, func() { _ = raw.Close() })
	l.mu.Lock()
	l.entries[c] = entry
	l.mu.Unlock()
}

// countedConn counts itself out of the open connections once, on Close.
type countedConn struct {
	net.Conn
	open   *atomic.Int64
	closed atomic.Bool
}

func (c *countedConn) Close() error {
	if !c.closed.Swap(true) {
		c.open.Add(-1)
	}
	err := c.Conn.Close()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// OpenConnections is the side port's open connections now.
func (s *Server) OpenConnections() int64 { return s.conns.open.Load() }

// RefusedConnections counts connections closed at once past the cap.
func (s *Server) RefusedConnections() uint64 { return s.conns.refused.Load() }

// EvictedConnections counts quiet connections closed for a newcomer.
func (s *Server) EvictedConnections() uint64 { return s.conns.quiet.Evicted() }

// MaxConnections is the side port's connection cap.
func (s *Server) MaxConnections() int { return int(s.conns.limit) }
