package remoting

import (
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// TestPacedWarningHoldsBackAndCounts: a burst writes one line; the next
// line, a second later, says how many were held back.
func TestPacedWarningHoldsBackAndCounts(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	var p PacedWarning
	for range 100 {
		p.Warn(logrus.NewEntry(logger), func() logrus.Fields { return logrus.Fields{"k": "v"} }, "burst")
	}
	if len(hook.AllEntries()) != 1 {
		t.Fatalf("%d lines for a burst of 100, want 1", len(hook.AllEntries()))
	}
	p.log.lastNanos.Store(0) // as if a second had passed
	p.Warn(logrus.NewEntry(logger), func() logrus.Fields { return logrus.Fields{} }, "later")
	if got := hook.LastEntry().Data["suppressedSinceLast"]; got != int64(99) {
		t.Fatalf("suppressedSinceLast = %v, want 99", got)
	}
}
