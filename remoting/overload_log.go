package remoting

import (
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// overloadLogInterval is the least time between two overload warnings: a
// flood answered SYSTEM_BUSY would otherwise write a line per request.
const overloadLogInterval = time.Second

// overloadLog writes at most one warning per overloadLogInterval and counts
// the ones it holds back, reporting them with the next line written.
type overloadLog struct {
	lastNanos  atomic.Int64
	suppressed atomic.Int64
}

// warn logs msg with the fields given by fields unless a warning went out
// less than overloadLogInterval ago; a held-back warning builds nothing.
func (o *overloadLog) warn(log *logrus.Entry, fields func() logrus.Fields, msg string, now time.Time) {
	last := o.lastNanos.Load()
	if now.UnixNano()-last < int64(overloadLogInterval) || !o.lastNanos.CompareAndSwap(last, now.UnixNano()) {
		o.suppressed.Add(1)
		return
	}
	f := fields()
	if n := o.suppressed.Swap(0); n > 0 {
		f["suppressedSinceLast"] = n
	}
	log.WithFields(f).Warn(msg)
}
