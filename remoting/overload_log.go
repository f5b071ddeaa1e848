package remoting

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// overloadLogInterval is the least time between two overload warnings: a
// flood answered SYSTEM_BUSY would otherwise write a line per request.
const overloadLogInterval = ratelog.DefaultInterval

// overloadLog writes at most one warning per overloadLogInterval and counts
// the ones it holds back, reporting them with the next line written
// (ratelog.Limiter, shared with the NameServer's per-request warnings).
type overloadLog struct{ limiter ratelog.Limiter }

// warn logs msg with the fields given by fields unless a warning went out
// less than overloadLogInterval ago; a held-back warning builds nothing.
func (o *overloadLog) warn(log *logrus.Entry, fields func() logrus.Fields, msg string, now time.Time) {
	o.limiter.Log(log, logrus.WarnLevel, fields, msg, now)
}
