package remoting

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/quiet"

	"github.com/gonamesrv/gonamesrv/internal/tlscork"
)

// tlsRecordHandshake is the first byte of a TLS connection (a handshake
// record); a RocketMQ frame starts with its length, whose first byte is 0
// for every frame under 16 MiB.
const tlsRecordHandshake = 0x16

// netListener serves the server's port with a Go net.Listener instead of
// gnet, for TLS: every accepted connection gets a goroutine that reads,
// decrypts and feeds the same eventHandler (OnOpen, OnTraffic, OnClose) the
// gnet loops call, so dispatch, pools, limits and handlers are the same.
// Route reads still run on the reading goroutine, off any lock.
type netListener struct {
	server   *Server
	events   *eventHandler
	listener net.Listener
	certs    *certSource
	mode     TLSMode
	// refusedLog paces the warnings of failed handshakes, busyLog those of
	// connections refused at the handshake cap.
	refusedLog overloadLog
	busyLog    overloadLog
	// handshakes counts the handshakes in progress (TLSOptions.MaxHandshakes);
	// handshakeQuiet holds them oldest first, for admitOrEvict.
	handshakes     atomic.Int64
	handshakeQuiet quiet.Queue
	busyRefused    atomic.Uint64

	conns sync.WaitGroup
	// handshaking holds the connections not yet handed to OnOpen, so stop
	// closes them too instead of waiting out their handshake timeout.
	handshaking sync.Map
	stopped     chan struct{}
}

// startNet binds the port with a net.Listener and serves it per the TLS mode.
func (s *Server) startNet(events *eventHandler) error {
	certs, err := newCertSource(*s.cfg.TLS, s.log)
	if err != nil {
		return s.failStart(err)
	}
	listener, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return s.failStart(err)
	}
	l := &netListener{server: s, events: events, listener: listener, certs: certs, mode: s.cfg.TLS.Mode,
		stopped: make(chan struct{})}
	s.addr = listener.Addr()
	s.netLn = l
	s.setConnectionLimit() // OnOpen caps connections here too
	certs.watch()
	go l.acceptLoop()
	go l.tickLoop()
	s.log.WithFields(logrus.Fields{"addr": s.addr.String(), "tlsMode": l.mode}).Info("remoting server listening with TLS")
	return nil
}

// failStart stops the pools Start made and returns its error.
func (s *Server) failStart(err error) error {
	s.state.Store(stateStopped)
	stopCtx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, pool := range s.pools {
		_ = pool.stop(stopCtx)
	}
	return fmt.Errorf("start server on %s: %w", s.cfg.Addr, err)
}

// acceptLoop serves every accepted connection on a goroutine of its own,
// counted by maxConnections from this moment on: a connection in its
// handshake holds a descriptor as much as one that finished it.
func (l *netListener) acceptLoop() {
	l.server.acceptEach(l.listener, func(raw net.Conn) {
		if !l.admit(raw) {
			_ = raw.Close()
			return
		}
		l.conns.Add(1)
		go l.serve(raw)
	})
}

// admit counts a new connection in within the handshake cap and the
// connection cap; at either, the oldest handshake (or silent connection)
// older than quietEvictAge is closed for it, else it is refused.
func (l *netListener) admit(raw net.Conn) bool {
	remote := raw.RemoteAddr().String()
	if l.handshakes.Load() >= int64(l.maxHandshakes()) && !l.handshakeQuiet.Evict(time.Now().Add(-quietEvictAge)) {
		l.busyRefused.Add(1)
		l.server.guard.refused.Add(1)
		l.busyLog.warn(l.server.log, func() logrus.Fields {
			return logrus.Fields{"remote": remote, "tlsHandshakeMaxConcurrent": l.maxHandshakes(), "refusedTotal": l.busyRefused.Load()}
		}, "TLS handshake limit reached, closing new connection", time.Now())
		return false
	}
	if !l.server.admitOrEvict(remote) {
		return false
	}
	l.handshakes.Add(1)
	return true
}

func (l *netListener) maxHandshakes() int {
	if n := l.server.cfg.TLS.MaxHandshakes; n > 0 {
		return n
	}
	return DefaultMaxHandshakes
}

func (l *netListener) handshakeTimeout() time.Duration {
	if d := l.server.cfg.TLS.HandshakeTimeout; d > 0 {
		return d
	}
	return DefaultHandshakeTimeout
}

// HandshakesRefused counts the connections closed at once at the TLS
// handshake cap; 0 without TLS.
func (s *Server) HandshakesRefused() uint64 {
	if s.netLn == nil {
		return 0
	}
	return s.netLn.busyRefused.Load()
}

// Handshakes is the TLS handshakes in progress; 0 without TLS.
func (s *Server) Handshakes() int64 {
	if s.netLn == nil {
		return 0
	}
	return s.netLn.handshakes.Load()
}

// tickLoop runs the idle scan gnet's ticker runs on the gnet path.
func (l *netListener) tickLoop() {
	for {
		delay, _ := l.events.OnTick()
		select {
		case <-l.stopped:
			return
		case <-time.After(delay):
		}
	}
}

// serve runs one connection: the TLS handshake (or the plain choice in
// permissive mode), then read and OnTraffic until it closes.
func (l *netListener) serve(raw net.Conn) {
	defer l.conns.Done()
	if tcp, ok := raw.(*net.TCPConn); ok {
		_ = tcp.SetNoDelay(true)
		if size := l.server.cfg.SocketSendBuffer; size > 0 {
			_ = tcp.SetWriteBuffer(size)
		}
		if size := l.server.cfg.SocketRecvBuffer; size > 0 {
			_ = tcp.SetReadBuffer(size)
		}
	}
	l.handshaking.Store(raw, struct{}{})
	entry := l.handshakeQuiet.Add(time.Now(), nil, func() { _ = raw.Close() })
	conn, err := l.secure(raw)
	l.handshakeQuiet.Remove(entry)
	l.handshaking.Delete(raw)
	l.handshakes.Add(-1)
	if err != nil {
		l.server.guard.release()
		l.refusedLog.warn(l.server.log, func() logrus.Fields {
			return logrus.Fields{"remote": raw.RemoteAddr().String(), "tlsMode": l.mode, "error": err.Error()}
		}, "connection refused: TLS handshake failed", time.Now())
		_ = raw.Close()
		return
	}
	nc := newNetConn(conn)
	nc.ctx = preAdmittedKey{} // counted by admit; OnOpen replaces it with the *Conn
	if _, action := l.events.OnOpen(nc); action == gnet.Close {
		_ = conn.Close()
		return
	}
	var cause error
	for {
		err := nc.fill()
		if err == nil {
			err = nc.fillReady()
		}
		if nc.InboundBuffered() > 0 && l.events.OnTraffic(nc) == gnet.Close {
			break
		}
		if err != nil {
			cause = err
			break
		}
		if !l.waitWhilePaused(nc) { // past its soft limit: read no more until its answers are written
			break
		}
	}
	_ = nc.Close()
	l.events.OnClose(nc, cause)
}

// secure returns the connection to serve: TLS after a handshake, or in
// permissive mode the plain connection when its first byte opens no
// handshake. The first byte and the handshake share the idle timeout's
// and the handshake timeout's bound.
func (l *netListener) secure(raw net.Conn) (net.Conn, error) {
	timeout := l.handshakeTimeout()
	_ = raw.SetReadDeadline(time.Now().Add(timeout))
	defer func() { _ = raw.SetReadDeadline(time.Time{}) }()
	conn := raw
	if l.mode == TLSPermissive {
		buffered := bufio.NewReaderSize(raw, 1)
		first, err := buffered.Peek(1)
		if err != nil {
			return nil, fmt.Errorf("read first byte: %w", err)
		}
		conn = &peekedConn{Conn: raw, reader: buffered}
		if first[0] != tlsRecordHandshake {
			return conn, nil
		}
	}
	tlsConn := tls.Server(&tlscork.Conn{Conn: conn}, l.certs.config())
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := tlsConn.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	return tlsConn, nil
}

// peekedConn reads through the buffer that holds the peeked first byte.
type peekedConn struct {
	net.Conn
	reader *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.reader.Read(p) }

// stop closes the listener and every connection, then waits for their
// goroutines (within ctx).
func (l *netListener) stop(ctx context.Context) error {
	_ = l.listener.Close()
	close(l.stopped)
	l.handshaking.Range(func(raw, _ any) bool {
		_ = raw.(net.Conn).Close()
		return true
	})
	l.server.conns.Range(func(_, value any) bool {
		_ = value.(*Conn).Close()
		return true
	})
	l.certs.close()
	return waitGroupContext(ctx, &l.conns, "tls connections")
}

// TLSConfig is the server's TLS configuration, each handshake taking the
// certificates in force (reloaded when their files change), for another
// port that should serve the same certificate (the HTTP side port's
// HTTPS); nil when TLS is off or before Start.
func (s *Server) TLSConfig() *tls.Config {
	if s.netLn == nil {
		return nil
	}
	return s.netLn.certs.config()
}
