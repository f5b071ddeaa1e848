package route

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// lockProbe is a log output that records each line and whether the
// manager's writer lock was held while it was written.
type lockProbe struct {
	m         *Manager
	lines     []string
	underLock int
}

func (p *lockProbe) Write(b []byte) (int, error) {
	if p.m.mu.TryLock() {
		p.m.mu.Unlock()
	} else {
		p.underLock++
	}
	p.lines = append(p.lines, string(b))
	return len(b), nil
}

func TestManagerLogsGoToItsLoggerAfterTheWriterLock(t *testing.T) {
	probe := &lockProbe{}
	logger := logrus.New()
	logger.SetOutput(probe)
	logger.SetLevel(logrus.DebugLevel)
	m := NewManager(Config{Log: logrus.NewEntry(logger).WithField("component", "route")})
	probe.m = m
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(10_000)
	registerNormal(t, m, b, "T")
	if removed := m.ScanExpired(testNow.Add(11 * time.Second)); len(removed) != 1 {
		t.Fatalf("removed %+v", removed)
	}
	all := strings.Join(probe.lines, "")
	for _, want := range []string{"new broker registered", "broker expired", "live broker removed", "component=route", b.addr} {
		if !strings.Contains(all, want) {
			t.Errorf("the manager's log lacks %q:\n%s", want, all)
		}
	}
	if probe.underLock != 0 {
		t.Errorf("%d of %d lines written while the writer lock was held", probe.underLock, len(probe.lines))
	}
	if m.Config().Log != nil {
		t.Error("Config returns the logger as a setting")
	}
}

func TestManagerSkipsLinesBelowItsLoggersLevel(t *testing.T) {
	probe := &lockProbe{}
	logger := logrus.New()
	logger.SetOutput(probe)
	logger.SetLevel(logrus.ErrorLevel)
	m := NewManager(Config{Log: logrus.NewEntry(logger)})
	probe.m = m
	registerNormal(t, m, defaultMaster(), "T")
	if len(probe.lines) != 0 || len(m.pendingLogs) != 0 {
		t.Fatalf("lines below the level were kept or written: %q, %d pending", probe.lines, len(m.pendingLogs))
	}
}

// TestRequestWarningsRateLimited: warnings a request causes (REGISTER_TOPIC
// naming an unknown broker, here 200 times) are written at most once per
// interval, not once each; lines below warn are not limited.
func TestRequestWarningsRateLimited(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	logger.SetLevel(logrus.DebugLevel)
	m := NewManager(Config{Log: logrus.NewEntry(logger)})
	for range 200 {
		if m.RegisterTopic("T", []QueueData{{BrokerName: "unknown", Perm: 6}}) {
			t.Fatal("a topic of an unknown broker was registered")
		}
	}
	warned := 0
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.WarnLevel {
			warned++
		}
	}
	if warned == 0 || warned > 4 {
		t.Fatalf("%d warnings for 200 refused REGISTER_TOPIC, want 1 to 4", warned)
	}
	for i := range 3 { // debug lines, one each
		b := defaultMaster().withAddr(fmt.Sprintf("127.0.0.1:%d", 20000+i))
		b.id, b.conn = int64(i+1), ConnID(10+i)
		registerNormal(t, m, b, "T")
	}
	if n := len(hook.AllEntries()) - warned; n != 3 {
		t.Fatalf("%d debug lines for 3 new brokers, want 3", n)
	}
}
