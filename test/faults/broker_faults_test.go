package faults

import (
	"syscall"
	"testing"
	"time"
)

// TestBrokerKill9: a broker killed with SIGKILL leaves the routes within
// 1 s, with its connection.
func TestBrokerKill9(t *testing.T) {
	r := record(t, 20, "broker kill -9", "SIGKILL to a registered broker")
	ns := startNamesrv(t, nsOptions{})
	b := startBroker(t, brokerOptions{name: "kill9", nameServers: []*proc{ns}})
	other := startBroker(t, brokerOptions{name: "bystander", nameServers: []*proc{ns}})
	_ = other
	if _, ok := waitFor(10*time.Second, 20*time.Millisecond, func() bool { return routed(ns, "kill9") && routed(ns, "bystander") }); !ok {
		t.Fatal("brokers never registered")
	}
	b.kill()
	gone, ok := waitFor(5*time.Second, 10*time.Millisecond, func() bool { return !routed(ns, "kill9") })
	r.figure(t, "time to leave the routes", ms(gone))
	if !ok || gone > time.Second {
		t.Fatalf("the killed broker left after %s (ok=%v), want within 1 s", gone, ok)
	}
	if !routed(ns, "bystander") {
		t.Fatal("the other broker left too")
	}
	r.observe(t, "gone with its connection's close; the other broker stayed")
}

// TestBrokerStopAndContinue: a broker stopped with SIGSTOP keeps its
// connection open and goes silent: evicted within its timeout plus one scan
// interval plus 1 s. After SIGCONT it registers again and is back within one
// registration period (plus 1 s of slack).
func TestBrokerStopAndContinue(t *testing.T) {
	r := record(t, 21, "broker SIGSTOP, then SIGCONT", "SIGSTOP to a registered broker until it is evicted, then SIGCONT")
	ns := startNamesrv(t, nsOptions{})
	b := startBroker(t, brokerOptions{name: "stopped", nameServers: []*proc{ns}})
	if _, ok := waitFor(10*time.Second, 20*time.Millisecond, func() bool { return routed(ns, "stopped") }); !ok {
		t.Fatal("broker never registered")
	}
	b.signal(syscall.SIGSTOP)
	limit := brokerTimeout + scanInterval + time.Second
	gone, ok := waitFor(limit+5*time.Second, 20*time.Millisecond, func() bool { return !routed(ns, "stopped") })
	r.figure(t, "time to leave the routes after SIGSTOP", ms(gone))
	if !ok || gone > limit {
		b.signal(syscall.SIGCONT)
		t.Fatalf("the stopped broker left after %s (ok=%v), want within %s", gone, ok, limit)
	}
	if gone < brokerTimeout-scanInterval {
		t.Errorf("the stopped broker left after %s, before its %s timeout", gone, brokerTimeout)
	}
	b.signal(syscall.SIGCONT)
	back, ok := waitFor(registerPeriod+5*time.Second, 20*time.Millisecond, func() bool { return routed(ns, "stopped") })
	r.figure(t, "time back in the routes after SIGCONT", ms(back))
	if !ok || back > registerPeriod+time.Second {
		t.Fatalf("back after %s (ok=%v), want within one registration period (%s) + 1 s", back, ok, registerPeriod)
	}
	r.observe(t, "evicted by the expiry scan after its timeout; registered again on its next period after SIGCONT")
}
