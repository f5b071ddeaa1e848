package faults

import (
	"syscall"
	"testing"
	"time"
)

// TestPauseNameServer is issue 13 item 1 end to end: brokers with a 3 s
// timeout heartbeating every second, the NameServer stopped with SIGSTOP
// for 8 s and continued. No live broker may leave the routes; one killed
// (kill -9) and one frozen (SIGSTOP, a silent death) during the pause must
// leave, the frozen one one timeout after the resume.
func TestPauseNameServer(t *testing.T) {
	r := record(t, 10, "NameServer paused (SIGSTOP) longer than the broker timeout",
		"3 brokers (3 s timeout, heartbeat 1 s); NameServer SIGSTOP 8 s, then SIGCONT; during the pause one broker kill -9, one SIGSTOP")
	ns := startNamesrv(t, nsOptions{})
	live := startBroker(t, brokerOptions{name: "pause-live", nameServers: []*proc{ns}})
	killed := startBroker(t, brokerOptions{name: "pause-killed", nameServers: []*proc{ns}})
	frozen := startBroker(t, brokerOptions{name: "pause-frozen", nameServers: []*proc{ns}})
	_ = live
	for _, name := range []string{"pause-live", "pause-killed", "pause-frozen"} {
		if _, ok := waitFor(10*time.Second, 50*time.Millisecond, func() bool { return routed(ns, name) }); !ok {
			t.Fatalf("%s never registered", name)
		}
	}

	ns.signal(syscall.SIGSTOP)
	time.Sleep(time.Second)
	killed.kill()
	frozen.signal(syscall.SIGSTOP)
	time.Sleep(7 * time.Second)
	ns.signal(syscall.SIGCONT)
	resumed := time.Now()

	// Watch for 3 s + 2 scans + 1 s: the live broker must be there at every
	// look; the killed one goes with its connection; the frozen one after
	// its timeout counted from the resume.
	var killedGone, frozenGone time.Duration
	liveMissing := 0
	for time.Since(resumed) < brokerTimeout+2*scanInterval+time.Second {
		brokers, err := brokersOf(ns.Addr)
		if err != nil {
			t.Fatalf("cluster info after the resume: %v", err)
		}
		at := time.Since(resumed)
		if brokers["pause-live"] == "" {
			liveMissing++
		}
		if killedGone == 0 && brokers["pause-killed"] == "" {
			killedGone = at
		}
		if frozenGone == 0 && brokers["pause-frozen"] == "" {
			frozenGone = at
		}
		time.Sleep(50 * time.Millisecond)
	}
	frozen.kill()
	r.figure(t, "live broker missing from the routes", itoa(liveMissing)+" of the looks after the resume")
	r.figure(t, "kill -9'd broker gone after the resume", msOrNever(killedGone))
	r.figure(t, "SIGSTOP'd broker gone after the resume", msOrNever(frozenGone))
	if ns.logHas("eviction ran late: the process was paused") {
		r.observe(t, "the NameServer logged the pause and extended the deadlines")
	} else {
		t.Error("no pause logged by the NameServer")
	}
	if liveMissing > 0 {
		t.Errorf("the live broker left the routes %d times after the resume", liveMissing)
	}
	// At once when its connection's close is seen; one timeout after the
	// resume (plus a scan) while a registration read after the close can
	// still stand (issue 13 item 6, ghost brokers, fixed on another branch).
	if limit := brokerTimeout + scanInterval + time.Second; killedGone == 0 || killedGone > limit {
		t.Errorf("the killed broker left %s after the resume, want within %s", msOrNever(killedGone), limit)
	}
	if frozenGone == 0 || frozenGone < brokerTimeout-time.Second || frozenGone > brokerTimeout+scanInterval+time.Second {
		t.Errorf("the frozen broker left %s after the resume, want about one timeout (%s) after it", msOrNever(frozenGone), brokerTimeout)
	}
	r.observe(t, "no live broker left the routes; the frozen broker left one timeout after the resume")
	if killedGone < time.Second {
		r.observe(t, "the killed broker left at once (its connection closed)")
	} else {
		r.observe(t, "the killed broker left with its timeout, not at its connection's close: a registration it had sent "+
			"before dying was read after the resume and applied after the close (issue 13 item 6, ghost brokers)")
	}
}
