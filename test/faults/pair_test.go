package faults

import (
	"fmt"
	"testing"
	"time"
)

// agree says whether both NameServers route every broker of names, with
// the same route for each broker's own topic.
func agree(a, b *proc, names []string) error {
	for _, name := range names {
		ra, ca, errA := routeOf(a.Addr, name)
		rb, cb, errB := routeOf(b.Addr, name)
		if errA != nil || errB != nil || ca != 0 || cb != 0 {
			return fmt.Errorf("topic %s: codes %d/%d, errors %v/%v", name, ca, cb, errA, errB)
		}
		if ka, kb := routeKey(ra), routeKey(rb); ka != kb {
			return fmt.Errorf("topic %s: %s vs %s", name, ka, kb)
		}
	}
	return nil
}

// TestPairRestartedRepeatedly restarts one NameServer of a pair again and
// again (SIGKILL and SIGTERM in turn) while brokers re-register: after each
// restart both must answer the same routes within one registration period.
func TestPairRestartedRepeatedly(t *testing.T) {
	restarts := 3
	if full() {
		restarts = 8
	}
	r := record(t, 40, "one NameServer of a pair restarted repeatedly",
		fmt.Sprintf("%d restarts of one NameServer (kill -9 and SIGTERM in turn) while 4 brokers re-register every second with both", restarts))
	ns1 := startNamesrv(t, nsOptions{})
	ns2 := startNamesrv(t, nsOptions{})
	names := []string{"pair-a", "pair-b", "pair-c", "pair-d"}
	for _, name := range names {
		startBroker(t, brokerOptions{name: name, nameServers: []*proc{ns1, ns2}})
	}
	if _, ok := waitFor(10*time.Second, 50*time.Millisecond, func() bool { return agree(ns1, ns2, names) == nil }); !ok {
		t.Fatalf("the pair never agreed: %v", agree(ns1, ns2, names))
	}
	var worst time.Duration
	for i := range restarts {
		if i%2 == 0 {
			ns2.kill()
		} else if !ns2.stop(10 * time.Second) {
			t.Errorf("restart %d: SIGTERM did not stop the NameServer within 10 s", i+1)
		}
		ns2.start()
		took, ok := waitFor(registerPeriod+5*time.Second, 20*time.Millisecond, func() bool { return agree(ns1, ns2, names) == nil })
		if !ok {
			t.Fatalf("restart %d: the pair disagrees: %v", i+1, agree(ns1, ns2, names))
		}
		worst = max(worst, took)
	}
	r.figure(t, "slowest agreement after a restart", ms(worst))
	if worst > registerPeriod+time.Second {
		t.Errorf("the pair agreed only %s after a restart, want within one registration period (%s) + 1 s", worst, registerPeriod)
	}
	r.observe(t, "after every restart both NameServers answered the same routes for every broker")
}
