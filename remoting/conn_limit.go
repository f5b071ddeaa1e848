package remoting

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/quiet"
)

// DefaultMaxConnections is maxConnections' default: far above what a
// NameServer serves (every broker and client holds one or two), below the
// file limit a service manager usually grants (LimitNOFILE=65536 or more).
const DefaultMaxConnections = 50000

// The descriptors the connection cap leaves of the file limit beyond those
// open once the server listens, by what needs them, so that connections
// alone never take the ones the server's own work needs (400 silent
// connections under a limit of 300 made KV writes and certificate reloads
// fail with "too many open files"). fdHeadroom is their sum;
// ServerConfig.ReservedDescriptors (the HTTP side port's cap) comes on top.
const (
	// kvFileDescriptors: a KV write's temporary file and its folder (fsync).
	kvFileDescriptors = 2
	// configFileDescriptors: a config update's temporary file and folder.
	configFileDescriptors = 2
	// certificateDescriptors: the certificate, key and trust files read
	// back each second, and the accounts file.
	certificateDescriptors = 4
	// notifyDialDescriptors: the notifications sent at once (16).
	notifyDialDescriptors = 16
	// acceptSlackDescriptors: the connections being handed to an event loop
	// (maxHandoversInFlight: gnet duplicates each descriptor before closing
	// the original), the evicted ones not yet closed (maxPendingEvictions), a
	// refused connection's descriptor held for a moment, a read of
	// /proc/self/fd, the log files.
	acceptSlackDescriptors = maxHandoversInFlight + maxPendingEvictions + 4

	fdHeadroom = kvFileDescriptors + configFileDescriptors + certificateDescriptors + notifyDialDescriptors + acceptSlackDescriptors
)

// quietEvictAge is how long a connection must have been silent since it
// connected (or, on the TLS path, in its handshake) before a newcomer past
// the cap may close it: a real client speaks within milliseconds.
const quietEvictAge = time.Second

// maxPendingEvictions bounds the silent connections closed for newcomers
// whose close has not completed yet (gnet closes on the connection's event
// loop, later): each still holds its descriptor while the newcomer holds
// one more, so a burst of evictions must not outrun the loops. Past it a
// newcomer is refused instead. Part of acceptSlackDescriptors.
const maxPendingEvictions = 4

// maxHandoversInFlight bounds the accepted connections being handed to an
// event loop at once: until the loop has taken one, it holds two
// descriptors (gnet's duplicate and the original), so a burst of 1,000
// accepts would otherwise run the count of descriptors past the cap.
const maxHandoversInFlight = 4

// connGuard caps the open connections. Past the cap a new connection
// closes the oldest one that has sent nothing since it connected for
// quietEvictAge, or, when there is none, is closed at once and counted, so
// that connections alone never use up the file descriptors (acceptLoop
// survives that too, by backing off) and silent ones never keep a real
// client out.
type connGuard struct {
	limit   atomic.Int64
	open    atomic.Int64
	refused atomic.Uint64
	log     overloadLog
	// quiet holds the open connections that have not spoken yet, oldest
	// first; quietConns their entries by connection id.
	quiet      quiet.Queue
	quietConns sync.Map // of *quietConn
	// evicting counts the evicted connections whose OnClose has not run.
	evicting atomic.Int64
	// handovers holds a token per connection being handed to an event loop
	// (maxHandoversInFlight); made by setConnectionLimit.
	handovers chan struct{}
}

// quietConn is an open connection's place in the quiet queue.
type quietConn struct {
	entry   *quiet.Entry
	evicted atomic.Bool
}

// admit counts a new connection in, or reports false past the cap.
func (g *connGuard) admit() bool {
	if g.open.Add(1) > g.limit.Load() {
		g.open.Add(-1)
		return false
	}
	return true
}

// release counts an admitted connection out.
func (g *connGuard) release() { g.open.Add(-1) }

// admitOrEvict counts a new connection in; at the cap it closes the
// oldest quiet connection for it (which counts itself out when its close
// completes, so the count runs one over for that moment), or refuses it,
// counted and logged.
func (s *Server) admitOrEvict(remote string) bool {
	if s.guard.admit() {
		return true
	}
	cutoff := time.Now().Add(-quietEvictAge)
	if (s.netLn != nil && s.netLn.handshakeQuiet.Evict(cutoff)) ||
		(s.guard.evicting.Load() < maxPendingEvictions && s.guard.quiet.Evict(cutoff)) {
		s.guard.open.Add(1)
		return true
	}
	s.guard.refused.Add(1)
	s.refuseConnection(remote)
	return false
}

// trackQuiet enters a connection just opened in the quiet queue: it stays
// evictable until its first byte arrives (its last-activity time moves).
func (s *Server) trackQuiet(conn *Conn) {
	opened := conn.lastActiveNanos.Load()
	qc := &quietConn{}
	qc.entry = s.guard.quiet.Add(time.Unix(0, opened), func() bool { return conn.lastActiveNanos.Load() != opened }, func() {
		qc.evicted.Store(true)
		s.guard.evicting.Add(1)
		s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}).
			Debug("closing a connection silent since it connected: the connection limit is reached")
		_ = conn.Close()
	})
	s.guard.quietConns.Store(conn.id, qc)
}

// forgetQuiet takes a closed connection out of the quiet queue.
func (s *Server) forgetQuiet(conn *Conn) {
	if v, ok := s.guard.quietConns.LoadAndDelete(conn.id); ok {
		qc := v.(*quietConn)
		s.guard.quiet.Remove(qc.entry)
		if qc.evicted.Load() {
			s.guard.evicting.Add(-1)
		}
	}
}

// EvictedConnections counts the silent connections closed for newcomers
// at the connection cap (TLS handshakes included).
func (s *Server) EvictedConnections() uint64 {
	n := s.guard.quiet.Evicted()
	if s.netLn != nil {
		n += s.netLn.handshakeQuiet.Evicted()
	}
	return n
}

// preAdmittedKey is the initial context (gnet.Conn.Context before OnOpen
// sets it) of a connection the accept path has counted in already
// (gnet.NewContext in hand, netConn.ctx in netListener.serve): OnOpen
// then does not count it again.
type preAdmittedKey struct{}

// preAdmitted reports whether ctx is that mark.
func preAdmitted(ctx any) bool {
	_, ok := ctx.(preAdmittedKey)
	return ok
}

// setLimit applies maxConnections, lowered to what the file limit leaves
// after the descriptors already open (pollers, the listener, logs), so that
// connections alone can never exhaust it.
func (s *Server) setConnectionLimit() {
	limit := int64(s.cfg.MaxConnections)
	fields := logrus.Fields{"maxConnections": limit, "reservedDescriptors": s.cfg.ReservedDescriptors}
	if room, nofile, ok := fdRoom(); ok && room-int64(s.cfg.ReservedDescriptors) < limit {
		room -= int64(s.cfg.ReservedDescriptors)
		fields["fileLimit"], fields["effectiveMaxConnections"] = nofile, max(1, room)
		// Info: the default is above most shells' limits; the start summary
		// of cmd/namesrv reports the cap in effect at warn level.
		s.log.WithFields(fields).Info("maxConnections lowered to what the open file limit (RLIMIT_NOFILE) leaves; raise the limit to serve more")
		limit = max(1, room)
	}
	s.guard.limit.Store(limit)
	s.guard.handovers = make(chan struct{}, maxHandoversInFlight)
}

// fdRoom is the soft file limit minus the open descriptors and fdHeadroom;
// ok is false where neither can be read.
func fdRoom() (room, nofile int64, ok bool) {
	var rlimit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rlimit); err != nil {
		return 0, 0, false
	}
	open, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, 0, false
	}
	if rlimit.Cur > 1<<40 {
		return 1 << 40, 1 << 40, true
	}
	return int64(rlimit.Cur) - int64(len(open)) - fdHeadroom, int64(rlimit.Cur), true
}

// FileRoom is the soft file limit less the descriptors open now and the
// named headroom (fdHeadroom): what connections may use, to be shared
// between the remoting port and the HTTP side port; ok is false where it
// cannot be read.
func FileRoom() (room int64, ok bool) {
	room, _, ok = fdRoom()
	return room, ok
}

// refuse logs (at most once a second) a connection closed past the cap.
func (s *Server) refuseConnection(remote string) {
	s.guard.log.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"remote": remote, "maxConnections": s.guard.limit.Load(), "refusedTotal": s.guard.refused.Load()}
	}, "connection limit reached, closing new connection", time.Now())
}

// OpenConnections is the number of connections open now.
func (s *Server) OpenConnections() int64 { return s.guard.open.Load() }

// RefusedConnections counts the connections closed at once for being past
// the connection limit, since start.
func (s *Server) RefusedConnections() uint64 { return s.guard.refused.Load() }

// MaxConnections is the connection cap in effect (maxConnections, or less
// when the file limit leaves less room); 0 before Start.
func (s *Server) MaxConnections() int64 { return s.guard.limit.Load() }

// SlowWorkers is the number of goroutines of the default worker pool as
// started (SlowWorkers after defaults), which the caller may have lowered
// from what its operator configured.
func (s *Server) SlowWorkers() int { return s.cfg.SlowWorkers }

// Failed is closed when the server stops serving by itself: gnet ended its
// engine while the server was running (gnet's own acceptor did that on
// EMFILE; the server accepts by itself now, but a poller error still
// would), so the event loops and every connection are gone. The
// owner should exit non-zero so that a supervisor restarts the process;
// FailErr says what happened.
func (s *Server) Failed() <-chan struct{} { return s.failed }

// FailErr is why Failed was closed, nil while it is not.
func (s *Server) FailErr() error {
	select {
	case <-s.failed:
		return s.failErr
	default:
		return nil
	}
}

// watchEngine closes Failed when gnet.Run returns although nobody asked the
// server to stop.
func (s *Server) watchEngine() {
	<-s.runDone
	if s.state.Load() != stateRunning {
		return
	}
	s.failErr = fmt.Errorf("server on %s stopped: the gnet engine ended on its own (%v; see gnet's error above)", s.addr, s.runErr)
	s.log.WithFields(logrus.Fields{"addr": fmt.Sprint(s.addr), "openConnections": s.guard.open.Load()}).
		WithError(s.failErr).Error("remoting server no longer listening")
	close(s.failed)
}
