package remoting

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
)

// DefaultMaxConnections is maxConnections' default: far above what a
// NameServer serves (every broker and client holds one or two), below the
// file limit a service manager usually grants (LimitNOFILE=65536 or more).
const DefaultMaxConnections = 50000

// fdHeadroom is what the connection cap leaves of the file limit beyond the
// descriptors open once the server listens: KV and config writes (a
// temporary file and its folder), notification dials, the descriptor an
// accept of a refused connection holds for a moment.
const fdHeadroom = 32

// connGuard caps the open connections. Past the cap a new connection is
// closed at once and counted, so that connections alone never use up the
// file descriptors (acceptLoop survives that too, by backing off).
type connGuard struct {
	limit   atomic.Int64
	open    atomic.Int64
	refused atomic.Uint64
	log     overloadLog
}

// admit counts a new connection in, or refuses it past the cap.
func (g *connGuard) admit() bool {
	if g.open.Add(1) > g.limit.Load() {
		g.open.Add(-1)
		g.refused.Add(1)
		return false
	}
	return true
}

// release counts an admitted connection out.
func (g *connGuard) release() { g.open.Add(-1) }

// setLimit applies maxConnections, lowered to what the file limit leaves
// after the descriptors already open (pollers, the listener, logs), so that
// connections alone can never exhaust it.
func (s *Server) setConnectionLimit() {
	limit := int64(s.cfg.MaxConnections)
	fields := logrus.Fields{"maxConnections": limit}
	if room, nofile, ok := fdRoom(); ok && room < limit {
		fields["fileLimit"], fields["effectiveMaxConnections"] = nofile, max(1, room)
		// Info: the default is above most shells' limits; the start summary
		// of cmd/namesrv reports the cap in effect at warn level.
		s.log.WithFields(fields).Info("maxConnections lowered to what the open file limit (RLIMIT_NOFILE) leaves; raise the limit to serve more")
		limit = max(1, room)
	}
	s.guard.limit.Store(limit)
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
