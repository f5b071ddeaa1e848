package ratelog

import (
	"errors"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

// TestLimiterWritesOnePerIntervalAndCountsTheRest: of a burst, the first line
// is written, the rest are held back and counted on the next line written
// once the interval has passed.
func TestLimiterWritesOnePerIntervalAndCountsTheRest(t *testing.T) {
	logger, hook := test.NewNullLogger()
	entry := logrus.NewEntry(logger)
	var l Limiter
	start := time.Unix(1000, 0)
	for i := range 100 {
		l.Log(entry, logrus.WarnLevel, func() logrus.Fields { return logrus.Fields{"i": i} }, "refused", start.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(hook.AllEntries()); n != 1 {
		t.Fatalf("%d lines written of a burst within one interval, want 1", n)
	}
	if !l.Log(entry, logrus.WarnLevel, nil, "refused", start.Add(2*time.Second)) {
		t.Fatal("a line after the interval was held back")
	}
	last := hook.LastEntry()
	if got := last.Data[SuppressedField]; got != int64(99) {
		t.Fatalf("%s = %v, want 99", SuppressedField, got)
	}
}

// TestSetKeepsKindsApart: a flood of one message does not hold back the
// first line of another; the error is a field.
func TestSetKeepsKindsApart(t *testing.T) {
	logger, hook := test.NewNullLogger()
	entry := logrus.NewEntry(logger)
	var s Set
	for range 50 {
		s.Warn(entry, logrus.Fields{"peer": "a"}, nil, "first kind")
	}
	if !s.Warn(entry, nil, errors.New("boom"), "second kind") {
		t.Fatal("the first line of another message was held back")
	}
	if n := len(hook.AllEntries()); n != 2 {
		t.Fatalf("%d lines, want 2", n)
	}
	if got := hook.LastEntry().Data[logrus.ErrorKey]; got != "boom" {
		t.Fatalf("error field %v", got)
	}
}

// TestLimiterSkipsDisabledLevels: a line below the logger's level is neither
// written nor counted.
func TestLimiterSkipsDisabledLevels(t *testing.T) {
	logger, hook := test.NewNullLogger()
	logger.SetLevel(logrus.WarnLevel)
	var l Limiter
	if l.Log(logrus.NewEntry(logger), logrus.DebugLevel, nil, "quiet", time.Now()) || len(hook.AllEntries()) != 0 || l.suppressed.Load() != 0 {
		t.Fatal("a disabled level was written or counted")
	}
}
