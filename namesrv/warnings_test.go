package namesrv

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// linesOf counts the hook's entries with that message.
func linesOf(s *testServer, message string) []*logrus.Entry {
	var lines []*logrus.Entry
	for _, e := range s.hook.AllEntries() {
		if e.Message == message {
			lines = append(lines, e)
		}
	}
	return lines
}

// TestRefusedRegistrationsCannotFloodTheLog: 500 refused registrations over
// the wire are each answered code 1, but write a line or two; the first
// line after the interval carries the count of the ones held back. Before,
// each wrote its own line (3,000 lines in 0.26 s).
func TestRefusedRegistrationsCannotFloodTheLog(t *testing.T) {
	s := startServer(t, nil)
	const flood = 500
	refused := func() {
		req := nstest.BrokerAMaster.RegisterRequest()
		req.ExtFields["heartbeatTimeoutMillis"] = "1"
		nstest.MustCode(t, nstest.Invoke(t, s.client, req), remoting.SYSTEM_ERROR)
	}
	for range flood {
		refused()
	}
	first := len(linesOf(s, "register broker refused"))
	if first == 0 || first > flood/50 {
		t.Fatalf("%d lines for %d refused registrations, want at least 1 and at most %d", first, flood, flood/50)
	}
	time.Sleep(ratelog.DefaultInterval + 100*time.Millisecond) // past the interval: the next line is written
	refused()
	lines := linesOf(s, "register broker refused")
	if len(lines) != first+1 {
		t.Fatalf("%d lines after the interval, want %d", len(lines), first+1)
	}
	// Every refusal is a line or counted in a later line's suppressed
	// count: on a slow machine the flood spans intervals, and a line
	// written during it reports what was held back until then.
	accounted := int64(0)
	for i, line := range lines {
		held, _ := line.Data[ratelog.SuppressedField].(int64)
		if i == 0 && held != 0 {
			t.Fatalf("the first line reports %d held back", held)
		}
		accounted += 1 + held
	}
	if accounted != flood+1 {
		t.Fatalf("lines and their %s account for %d refusals, want %d", ratelog.SuppressedField, accounted, flood+1)
	}
}

// TestRefusedConfigUpdatesCannotFloodTheLog: the same for another handler's
// warning, a config update of a protected key.
func TestRefusedConfigUpdatesCannotFloodTheLog(t *testing.T) {
	s := startServer(t, nil)
	for range 200 {
		resp := s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("aclEnable=true\n"))
		nstest.MustCode(t, resp, remoting.NO_PERMISSION)
	}
	if n := len(linesOf(s, "update name server config refused")); n == 0 || n > 4 {
		t.Fatalf("%d lines for 200 refused config updates, want 1 to 4", n)
	}
}
