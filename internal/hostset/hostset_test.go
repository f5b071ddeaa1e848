package hostset

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// fakeDNS answers from a map a test changes, counting the lookups.
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][]netip.Addr
	lookups atomic.Int64
}

func newFakeDNS() *fakeDNS { return &fakeDNS{answers: map[string][]netip.Addr{}} }

func (d *fakeDNS) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	d.lookups.Add(1)
	d.mu.Lock()
	defer d.mu.Unlock()
	if ips, ok := d.answers[host]; ok {
		return ips, nil
	}
	return nil, errors.New("no such host")
}

func (d *fakeDNS) set(host string, ips ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var addrs []netip.Addr
	for _, ip := range ips {
		addrs = append(addrs, netip.MustParseAddr(ip))
	}
	d.answers[host] = addrs
}

func (d *fakeDNS) forget(host string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.answers, host)
}

// fakeClock is the time since the set was made, as a test moves it.
type fakeClock struct{ elapsed atomic.Int64 }

func (c *fakeClock) since(time.Time) time.Duration { return time.Duration(c.elapsed.Load()) }
func (c *fakeClock) advance(d time.Duration)       { c.elapsed.Add(int64(d)) }

const testInterval = 10 * time.Second

func newTestSet(t *testing.T, dns *fakeDNS, clock *fakeClock, hosts ...string) (*Set, *logtest.Hook) {
	t.Helper()
	logger, hook := logtest.NewNullLogger()
	s := newSet(Options{Hosts: hosts, Lookup: dns.lookup, Interval: testInterval, Timeout: time.Second,
		Log: logrus.NewEntry(logger), Unresolved: "test host does not resolve"}, clock.since)
	return s, hook
}

// waitIdle waits for a background resolution to end.
func waitIdle(t *testing.T, s *Set) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.running.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the background resolution never ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitContains(t *testing.T, s *Set, ip string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !s.Contains(netip.MustParseAddr(ip)) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never in the set", ip)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSetHoldsLiteralsAndResolvedNames(t *testing.T) {
	dns := newFakeDNS()
	dns.set("peer-b", "10.0.0.2", "::ffff:10.0.0.3")
	s, _ := newTestSet(t, dns, &fakeClock{}, "10.0.0.1", "peer-b", "::1", "::ffff:10.0.0.5")
	for _, ip := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "::ffff:10.0.0.1", "::1", "10.0.0.5"} {
		if !s.Contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s not in the set", ip)
		}
	}
	for _, ip := range []string{"10.0.0.4", "127.0.0.1", "0.0.0.0"} {
		if s.Contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s in the set", ip)
		}
	}
	if s.Contains(netip.Addr{}) {
		t.Error("the invalid address is in the set")
	}
	if s.Empty() {
		t.Error("a set of four hosts says it is empty")
	}
}

// With no host listed nothing is in the set, and Empty says so.
func TestEmptySetHoldsNothing(t *testing.T) {
	dns := newFakeDNS()
	s, _ := newTestSet(t, dns, &fakeClock{})
	if !s.Empty() || s.Contains(netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("an empty list let an address in")
	}
	if dns.lookups.Load() != 0 {
		t.Fatal("looked up with no name listed")
	}
}

// A miss makes the names resolved again in the background, at most once
// per interval however many misses come; the caller is answered at once
// and the next question is judged on the new addresses, the old ones gone.
func TestMissResolvesAgainPacedInTheBackground(t *testing.T) {
	dns := newFakeDNS()
	dns.set("peer-b", "10.0.0.2")
	clock := &fakeClock{}
	s, _ := newTestSet(t, dns, clock, "peer-b")
	if got := dns.lookups.Load(); got != 1 {
		t.Fatalf("%d lookups at start, want 1", got)
	}
	dns.set("peer-b", "10.0.0.9")
	clock.advance(testInterval - time.Millisecond)
	for range 100 {
		if s.Contains(netip.MustParseAddr("10.0.0.9")) {
			t.Fatal("the new address is in the set before any resolution")
		}
	}
	waitIdle(t, s)
	if got := dns.lookups.Load(); got != 1 {
		t.Fatalf("%d lookups within the interval, want 1", got)
	}
	clock.advance(time.Millisecond)
	waitContains(t, s, "10.0.0.9")
	if s.Contains(netip.MustParseAddr("10.0.0.2")) {
		t.Fatal("the name's old address is still in the set")
	}
	waitIdle(t, s)
	if got := dns.lookups.Load(); got != 2 {
		t.Fatalf("%d lookups after one interval, want 2", got)
	}
}

// Contains never waits on a lookup: a resolver that hangs does not hold
// the caller.
func TestContainsDoesNotWaitForTheLookup(t *testing.T) {
	release := make(chan struct{})
	var lookups atomic.Int64
	clock := &fakeClock{}
	logger, _ := logtest.NewNullLogger()
	s := newSet(Options{Hosts: []string{"peer-b"}, Interval: testInterval, Timeout: time.Minute, Log: logrus.NewEntry(logger),
		Lookup: func(ctx context.Context, _ string) ([]netip.Addr, error) {
			if lookups.Add(1) == 1 {
				return []netip.Addr{netip.MustParseAddr("10.0.0.2")}, nil
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil, errors.New("released")
		}}, clock.since)
	clock.advance(testInterval)
	done := make(chan bool)
	go func() { done <- s.Contains(netip.MustParseAddr("10.0.0.9")) }()
	select {
	case in := <-done:
		if in {
			t.Fatal("an unknown address is in the set")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Contains waited on the hanging lookup")
	}
	close(release)
	waitIdle(t, s)
	if !s.Contains(netip.MustParseAddr("10.0.0.2")) {
		t.Fatal("the failed lookup dropped the name's last answer")
	}
}

// A name that fails to resolve keeps its last good answer (a DNS failure
// does not lock the host out), and the failure is logged with the host and
// how many addresses it keeps; the other names take their new answers.
func TestFailedLookupKeepsTheLastGoodAnswer(t *testing.T) {
	dns := newFakeDNS()
	dns.set("peer-b", "10.0.0.2")
	dns.set("peer-c", "10.0.0.3")
	clock := &fakeClock{}
	s, hook := newTestSet(t, dns, clock, "peer-b", "peer-c")
	dns.forget("peer-b")
	dns.set("peer-c", "10.0.0.4")
	clock.advance(testInterval)
	s.Contains(netip.MustParseAddr("10.0.0.99"))
	waitContains(t, s, "10.0.0.4")
	waitIdle(t, s)
	if !s.Contains(netip.MustParseAddr("10.0.0.2")) {
		t.Fatal("a failed lookup dropped the name's last answer")
	}
	if s.Contains(netip.MustParseAddr("10.0.0.3")) {
		t.Fatal("a name that resolved kept its old address")
	}
	var warned *logrus.Entry
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "test host does not resolve") {
			warned = e
		}
	}
	if warned == nil || warned.Level != logrus.WarnLevel || warned.Data["host"] != "peer-b" || warned.Data["kept"] != 1 {
		t.Fatalf("failure logged as %+v", warned)
	}
}

// A name that never resolved is not in the set until it does; with only
// literals listed nothing is ever looked up.
func TestUnresolvedNameAndLiteralsOnly(t *testing.T) {
	dns := newFakeDNS()
	clock := &fakeClock{}
	s, _ := newTestSet(t, dns, clock, "peer-late")
	if s.Empty() {
		t.Fatal("a listed name that does not resolve makes the set empty")
	}
	dns.set("peer-late", "10.0.0.7")
	clock.advance(testInterval)
	waitContains(t, s, "10.0.0.7")

	literals := newFakeDNS()
	l, _ := newTestSet(t, literals, clock, "127.0.0.1")
	clock.advance(time.Hour)
	if l.Contains(netip.MustParseAddr("10.0.0.1")) || l.running.Load() || literals.lookups.Load() != 0 {
		t.Fatal("looked up with no name listed")
	}
}
