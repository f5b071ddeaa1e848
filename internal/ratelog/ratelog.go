// Package ratelog writes the log lines a peer can cause (a refused
// request, a bad frame) at most once per interval, counting the ones held
// back and reporting the count with the next line written: a flood of bad
// requests must not become a flood of log lines.
package ratelog

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// DefaultInterval is the least time between two lines of one Limiter whose
// interval is not set.
const DefaultInterval = time.Second

// SuppressedField is the field of a written line that counts the lines held
// back since the one before it.
const SuppressedField = "suppressedSinceLast"

// MaxMessages bounds the messages a Set keeps a Limiter for; past it the
// others share one. Messages are the constants of the code, so it is never
// reached unless a caller builds them from what a peer sent.
const MaxMessages = 256

// Limiter writes at most one line per interval. The zero value uses
// DefaultInterval; it is safe for concurrent use and never blocks.
type Limiter struct {
	Interval   time.Duration
	lastNanos  atomic.Int64
	suppressed atomic.Int64
}

// Log writes msg at level with the fields given by fields unless a line went
// out less than the interval ago; a held-back line builds nothing. It says
// whether the line was written.
func (l *Limiter) Log(entry *logrus.Entry, level logrus.Level, fields func() logrus.Fields, msg string, now time.Time) bool {
	if !entry.Logger.IsLevelEnabled(level) {
		return false
	}
	interval := l.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	last := l.lastNanos.Load()
	if (last != 0 && now.UnixNano()-last < int64(interval)) || !l.lastNanos.CompareAndSwap(last, now.UnixNano()) {
		l.suppressed.Add(1)
		return false
	}
	f := logrus.Fields{}
	if fields != nil {
		f = fields()
	}
	if n := l.suppressed.Swap(0); n > 0 {
		f[SuppressedField] = n
	}
	entry.WithFields(f).Log(level, msg)
	return true
}

// Set keeps one Limiter per message, so a flood of one kind of line does
// not hide the first line of another kind. The zero value is ready, with
// DefaultInterval; set Interval before the first Log.
type Set struct {
	Interval time.Duration
	byMsg    sync.Map // message -> *Limiter
	count    atomic.Int64
	overflow Limiter
}

// Log writes msg at level with fields (and err, when not nil) through the
// message's Limiter.
func (s *Set) Log(entry *logrus.Entry, level logrus.Level, fields logrus.Fields, err error, msg string) bool {
	return s.limiter(msg).Log(entry, level, func() logrus.Fields {
		f := make(logrus.Fields, len(fields)+2)
		for k, v := range fields {
			f[k] = v
		}
		if err != nil {
			f[logrus.ErrorKey] = err.Error()
		}
		return f
	}, msg, time.Now())
}

// Warn is Log at warn level.
func (s *Set) Warn(entry *logrus.Entry, fields logrus.Fields, err error, msg string) bool {
	return s.Log(entry, logrus.WarnLevel, fields, err, msg)
}

func (s *Set) limiter(msg string) *Limiter {
	if l, ok := s.byMsg.Load(msg); ok {
		return l.(*Limiter)
	}
	if s.count.Load() >= MaxMessages {
		return &s.overflow // at DefaultInterval
	}
	l, loaded := s.byMsg.LoadOrStore(msg, &Limiter{Interval: s.Interval})
	if !loaded {
		s.count.Add(1)
	}
	return l.(*Limiter)
}
