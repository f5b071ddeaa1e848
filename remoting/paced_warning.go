package remoting

import (
	"time"

	"github.com/sirupsen/logrus"
)

// PacedWarning is the server's own rate-limited warning (overloadLog) for
// other packages: at most one line a second, the next one carrying
// suppressedSinceLast, the count of those held back. The HTTP side port
// logs its failed TLS handshakes with it, as this package logs its own.
type PacedWarning struct{ log overloadLog }

// Warn logs msg with the fields fields builds unless a warning went out
// less than a second ago; a held-back one builds nothing.
func (p *PacedWarning) Warn(log *logrus.Entry, fields func() logrus.Fields, msg string) {
	p.log.warn(log, fields, msg, time.Now())
}
