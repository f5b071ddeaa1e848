package route

import (
	"testing"
	"time"
)

// TestExtendDeadlinesSparesBrokersSilentOnlyDuringThePause is the pause of
// issue 13 item 1 on the injected clock: brokers with a 3 s timeout heard
// every second, the process stopped for 8 s; the first scan after the resume
// must remove no one, and a broker that never speaks again goes one timeout
// after the resume.
func TestExtendDeadlinesSparesBrokersSilentOnlyDuringThePause(t *testing.T) {
	m := NewManager(Config{})
	alive := defaultMaster()
	alive.timeoutMillis = int64Ptr(3000)
	dead := defaultMaster().withName("Dead").withAddr("10.0.0.2:1")
	dead.conn = 7
	dead.timeoutMillis = int64Ptr(3000)
	registerNormal(t, m, alive, "T")
	registerNormal(t, m, dead, "U")

	lastRun := testNow.Add(500 * time.Millisecond) // the last scan before the pause
	if removed := m.ScanExpired(lastRun); removed != nil {
		t.Fatalf("removed before the pause: %+v", removed)
	}
	m.Heartbeat(alive.cluster, alive.addr, testNow.Add(time.Second))
	m.Heartbeat(dead.cluster, dead.addr, testNow.Add(time.Second))
	resume := testNow.Add(9 * time.Second) // stopped from 1 s to 9 s
	if n := m.ExtendDeadlines(lastRun, resume); n != 2 {
		t.Fatalf("extended %d brokers, want 2", n)
	}
	if removed := m.ScanExpired(resume); removed != nil {
		t.Fatalf("the scan after the pause removed %+v", removed)
	}
	// alive's queued heartbeat is read after the resume; dead stays silent.
	m.Heartbeat(alive.cluster, alive.addr, resume.Add(10*time.Millisecond))
	if removed := m.ScanExpired(resume.Add(3 * time.Second)); removed != nil {
		t.Fatalf("removed before one timeout after the resume: %+v", removed)
	}
	removed := m.ScanExpired(resume.Add(3*time.Second + time.Millisecond))
	if len(removed) != 1 || removed[0].BrokerAddr != dead.addr {
		t.Fatalf("one timeout after the resume removed %+v, want only %s", removed, dead.addr)
	}
	if routeOf(m, "T") == nil {
		t.Fatal("the live broker lost its route")
	}
}

// TestExtendDeadlinesMovesOlderSilenceByTheGap: a broker already silent before
// the last run keeps the silence it had then, no more and no less.
func TestExtendDeadlinesMovesOlderSilenceByTheGap(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(10_000)
	registerNormal(t, m, b, "T") // heard at testNow
	lastRun := testNow.Add(4 * time.Second)
	now := lastRun.Add(20 * time.Second)
	m.ExtendDeadlines(lastRun, now)
	// 4 s of silence counted before the pause, 6 s left after it.
	if removed := m.ScanExpired(now.Add(6 * time.Second)); removed != nil {
		t.Fatalf("removed early: %+v", removed)
	}
	if removed := m.ScanExpired(now.Add(6*time.Second + time.Millisecond)); len(removed) != 1 {
		t.Fatalf("not removed when its remaining timeout ran out: %+v", removed)
	}
}

// TestExtendDeadlinesNeverMovesALaterHeartbeat: a heartbeat read after the
// resume is not pushed into the future, and a clock that did not advance
// changes nothing.
func TestExtendDeadlinesNeverMovesALaterHeartbeat(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	b.timeoutMillis = int64Ptr(3000)
	registerNormal(t, m, b, "T")
	now := testNow.Add(10 * time.Second)
	m.Heartbeat(b.cluster, b.addr, now)
	m.ExtendDeadlines(testNow, now)
	if n := m.ExtendDeadlines(now, now); n != 0 {
		t.Fatalf("a zero gap looked at %d brokers", n)
	}
	if removed := m.ScanExpired(now.Add(3*time.Second + time.Millisecond)); len(removed) != 1 {
		t.Fatalf("deadline moved past now+timeout: %+v", removed)
	}
}
