package remoting

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"
)

// The server accepts connections itself and hands them to gnet's event
// loops, instead of letting gnet listen: gnet's acceptor ends the whole
// engine, every connection with it, on an accept error other than
// EAGAIN/EINTR/ECONNRESET/ECONNABORTED (EMFILE under a low file limit,
// ENFILE, ENOBUFS, ENOMEM), and takes every queued connection before the
// connection cap is checked. Here an accept error only pauses accepting, and
// a connection past the cap is closed before gnet sees it.

// Bounds of the pause after a failed accept: doubled on each failure in a
// row, so a process out of descriptors retries quickly at first, then once
// a second without spinning.
const (
	minAcceptBackoff = 5 * time.Millisecond
	maxAcceptBackoff = time.Second
)

// listen binds the configured address. An IPv4 host is bound IPv4 only, as
// gnet did, rather than as Go's dual-stack wildcard.
func listen(addr string) (net.Listener, error) {
	network := "tcp"
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.To4() != nil {
			network = "tcp4"
		}
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// acceptLoop accepts until the listener is closed, handing each connection
// within the cap to an event loop.
func (s *Server) acceptLoop(ln net.Listener) {
	defer close(s.acceptDone)
	s.acceptEach(ln, s.hand)
}

// acceptEach accepts on ln until it is closed or the server stops accepting,
// calling handle for each connection; the gnet path and the TLS path share
// it. A failed accept (out of descriptors) is warned about at most once a
// second and retried after a pause that doubles while failures go on, the
// listener staying open.
func (s *Server) acceptEach(ln net.Listener, handle func(net.Conn)) {
	backoff := time.Duration(0)
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			backoff = min(max(2*backoff, minAcceptBackoff), maxAcceptBackoff)
			s.acceptLog.warn(s.log, func() logrus.Fields {
				return logrus.Fields{"error": err.Error(), "retryIn": backoff.String(), "openConnections": s.guard.open.Load()}
			}, "accept failed, still listening (out of file descriptors? raise RLIMIT_NOFILE or lower maxConnections)", time.Now())
			select {
			case <-time.After(backoff):
			case <-s.acceptStop:
				return
			}
			continue
		}
		backoff = 0
		handle(nc)
	}
}

// hand gives an accepted connection to an event loop, counted in by
// admitOrEvict first (past the cap it closes a silent connection for it,
// or it is closed at once), so that the cap holds before gnet sees it.
func (s *Server) hand(nc net.Conn) {
	if !s.admitOrEvict(nc.RemoteAddr().String()) {
		_ = nc.Close()
		return
	}
	if tcp, ok := nc.(*net.TCPConn); ok {
		if s.cfg.SocketSendBuffer > 0 {
			_ = tcp.SetWriteBuffer(s.cfg.SocketSendBuffer)
		}
		if s.cfg.SocketRecvBuffer > 0 {
			_ = tcp.SetReadBuffer(s.cfg.SocketRecvBuffer)
		}
	}
	// gnet duplicates the descriptor on one of its goroutines and closes nc;
	// OnOpen sees the mark and does not count the connection again. When
	// the loop never opens it, it is counted out here.
	ctx := gnet.NewContext(gnet.NewNetConnContext(context.Background(), nc), preAdmittedKey{}) // the conn's Context until OnOpen
	// The accept loop waits while maxHandoversInFlight are being handed over.
	select {
	case s.guard.handovers <- struct{}{}:
	case <-s.acceptStop:
		s.guard.release()
		_ = nc.Close()
		return
	}
	result, err := s.engine.Register(ctx)
	if err != nil {
		<-s.guard.handovers
		s.guard.release()
		_ = nc.Close()
		s.log.WithError(err).WithField("remote", nc.RemoteAddr().String()).Debug("connection not handed to an event loop")
		return
	}
	go func() {
		r := <-result
		<-s.guard.handovers
		if r.Err != nil {
			s.guard.release()
			s.log.WithError(r.Err).WithField("remote", nc.RemoteAddr().String()).Debug("connection not handed to an event loop")
		}
	}()
}

// stopAccepting closes the listener and waits for the accept loop to end.
func (s *Server) stopAccepting() {
	s.acceptOnce.Do(func() {
		close(s.acceptStop)
		if s.listener != nil {
			_ = s.listener.Close()
			<-s.acceptDone
		}
	})
}

// parkingListener is the address gnet listens on, since it runs no engine
// without one: a Unix socket in a fresh folder only this user can enter,
// which nobody dials (connections arrive through acceptLoop). cleanup
// removes the folder: Start calls it as soon as gnet has booted, since a
// bound socket needs no path, so a process killed later leaves nothing
// behind; folders left by a process killed while starting are removed by
// the next start (parking.go).
func parkingListener() (addr string, cleanup func(), err error) {
	removeStaleParking(os.TempDir(), time.Now())
	dir, err := os.MkdirTemp("", parkingPrefix)
	if err != nil {
		return "", nil, fmt.Errorf("folder for gnet's unused socket: %w", err)
	}
	return "unix://" + filepath.Join(dir, parkingSocket), func() { _ = os.RemoveAll(dir) }, nil
}
