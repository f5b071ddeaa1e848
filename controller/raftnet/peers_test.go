package raftnet

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// fakeDNS answers from a map a test changes, counting the lookups.
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][]netip.Addr
	lookups atomic.Int64
}

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

func TestPeerSetHoldsLiteralsAndResolvedNames(t *testing.T) {
	dns := &fakeDNS{answers: map[string][]netip.Addr{}}
	dns.set("peer-b", "10.0.0.2", "::ffff:10.0.0.3")
	s := newPeerSet([]string{"10.0.0.1", "peer-b", "::1"}, testlog.Discard(), dns.lookup)
	for _, ip := range []string{"10.0.0.1", "10.0.0.2", "10.0.0.3", "::ffff:10.0.0.1", "::1"} {
		if !s.contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s refused", ip)
		}
	}
	for _, ip := range []string{"10.0.0.4", "127.0.0.1", "0.0.0.0"} {
		if s.contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s accepted", ip)
		}
	}
}

// A name is resolved again when asked (a connection from an unknown
// address), at most once per ResolveInterval; a failed lookup keeps the
// name's last answer.
func TestPeerSetResolvesAgainPacedAndKeepsTheLastGoodAnswer(t *testing.T) {
	dns := &fakeDNS{answers: map[string][]netip.Addr{}}
	dns.set("peer-b", "10.0.0.2")
	s := newPeerSet([]string{"peer-b"}, testlog.Discard(), dns.lookup)
	if dns.lookups.Load() != 1 {
		t.Fatalf("%d lookups at start, want 1", dns.lookups.Load())
	}
	dns.set("peer-b", "10.0.0.9")
	for range 100 {
		s.refreshSoon()
	}
	// Within ResolveInterval of the start nothing is looked up again.
	if got := dns.lookups.Load(); got != 1 {
		t.Fatalf("%d lookups within the interval, want 1", got)
	}
	s.last.Store(int64(time.Since(s.start)) - int64(ResolveInterval)) // as if the interval passed
	s.refreshSoon()
	deadline := time.Now().Add(10 * time.Second)
	for !s.contains(netip.MustParseAddr("10.0.0.9")) {
		if time.Now().After(deadline) {
			t.Fatal("new address never accepted")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if s.contains(netip.MustParseAddr("10.0.0.2")) {
		t.Fatal("the old address is still accepted")
	}
	for s.running.Load() {
		time.Sleep(5 * time.Millisecond)
	}
	dns.mu.Lock()
	delete(dns.answers, "peer-b")
	dns.mu.Unlock()
	s.resolve()
	if !s.contains(netip.MustParseAddr("10.0.0.9")) {
		t.Fatal("a failed lookup dropped the name's last answer")
	}
}

func TestPeerSetWithOnlyLiteralsNeverLooksUp(t *testing.T) {
	dns := &fakeDNS{answers: map[string][]netip.Addr{}}
	s := newPeerSet([]string{"127.0.0.1"}, testlog.Discard(), dns.lookup)
	s.last.Store(-int64(time.Hour))
	s.refreshSoon()
	if dns.lookups.Load() != 0 || s.running.Load() {
		t.Fatal("looked up with no name listed")
	}
}
