package remoting

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

func noFields() logrus.Fields { return logrus.Fields{} }

// TestOverloadWarningsArePaced: a thousand busy answers within a second
// write one warning; the next one, a second later, says how many were held
// back.
func TestOverloadWarningsArePaced(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	var o overloadLog
	start := time.Unix(1_700_000_000, 0)
	for i := range 1000 {
		o.warn(logrus.NewEntry(logger), noFields, "busy", start.Add(time.Duration(i)*time.Millisecond/2))
	}
	if n := len(hook.AllEntries()); n != 1 {
		t.Fatalf("%d warnings for 1000 busy answers in half a second, want 1", n)
	}
	o.warn(logrus.NewEntry(logger), noFields, "busy", start.Add(overloadLogInterval+time.Millisecond))
	entries := hook.AllEntries()
	if len(entries) != 2 || entries[1].Data["suppressedSinceLast"] != int64(999) {
		t.Fatalf("second warning %+v, want one saying 999 were held back", entries[len(entries)-1].Data)
	}
}
