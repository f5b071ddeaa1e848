// Package hostset holds the IP addresses of a list of hosts, some given as
// IPs, some as names, for a server that takes something only from those
// hosts (the controller's Raft port from its peers, the NameServer's
// election notices from controllerAddr). Names are resolved when the set is
// made and again, in the background and at most once per interval, when an
// address the set does not hold is asked about: a peer that came back under
// a new address of its name is let in on its next try, and a stranger's
// attempts cost at most one round of lookups per interval.
package hostset

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// LookupFunc resolves a host name (net.DefaultResolver's, or a test's).
type LookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// SystemLookup is the system resolver's answer for host.
func SystemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// Options make a Set.
type Options struct {
	// Hosts are IP addresses or names, as configured.
	Hosts []string
	// Lookup resolves a name; nil is SystemLookup.
	Lookup LookupFunc
	// Interval is the least time between two resolutions that misses
	// start.
	Interval time.Duration
	// Timeout bounds one lookup of one name.
	Timeout time.Duration
	// Log takes a warning, fields host and kept (how many addresses the
	// name keeps from its last good answer), when a name does not resolve.
	Log *logrus.Entry
	// Unresolved is that warning's message, saying what the caller refuses
	// until the name resolves.
	Unresolved string
}

// Set is the addresses of Options.Hosts: IP literals as they are, names as
// last resolved. Its methods are safe for concurrent use.
type Set struct {
	opts Options
	// literals are the hosts given as IP addresses; names the others.
	literals []netip.Addr
	names    []string
	// addrs is what Contains reads: replaced whole by each resolution.
	addrs atomic.Pointer[map[netip.Addr]struct{}]

	// mu serializes resolutions and guards byName, each name's last good
	// answer: a name that fails to resolve again keeps it.
	mu     sync.Mutex
	byName map[string][]netip.Addr
	// last is when the last resolution started, as time since start;
	// running is set while one runs in the background.
	last    atomic.Int64
	running atomic.Bool
	start   time.Time
	since   func(time.Time) time.Duration // time.Since; a test's clock
}

// New resolves the names of opts.Hosts once before it returns.
func New(opts Options) *Set {
	return newSet(opts, time.Since)
}

func newSet(opts Options, since func(time.Time) time.Duration) *Set {
	if opts.Lookup == nil {
		opts.Lookup = SystemLookup
	}
	s := &Set{opts: opts, byName: map[string][]netip.Addr{}, start: time.Now(), since: since}
	for _, h := range opts.Hosts {
		if ip, err := netip.ParseAddr(h); err == nil {
			s.literals = append(s.literals, ip.Unmap())
		} else {
			s.names = append(s.names, h)
		}
	}
	s.resolve()
	return s
}

// Empty says no host was listed: the set never holds an address.
func (s *Set) Empty() bool { return len(s.literals)+len(s.names) == 0 }

// Contains says whether ip is an address of a host, as last resolved. On a
// miss it starts a resolution of the names in the background (unless one
// runs or the last started less than Options.Interval ago) and returns at
// once: the next question is answered from the new addresses.
func (s *Set) Contains(ip netip.Addr) bool {
	if !ip.IsValid() {
		return false
	}
	if _, ok := (*s.addrs.Load())[ip.Unmap()]; ok {
		return true
	}
	s.refreshSoon()
	return false
}

// refreshSoon resolves the names again in the background, unless there are
// none, one runs, or the last started less than Interval ago.
func (s *Set) refreshSoon() {
	if len(s.names) == 0 {
		return
	}
	now := int64(s.since(s.start))
	if last := s.last.Load(); now-last < int64(s.opts.Interval) || !s.running.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.running.Store(false)
		s.resolve()
	}()
}

// resolve looks every name up, each within Timeout, and publishes the new
// set.
func (s *Set) resolve() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last.Store(int64(s.since(s.start)))
	for _, name := range s.names {
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
		ips, err := s.opts.Lookup(ctx, name)
		cancel()
		if err != nil || len(ips) == 0 {
			s.opts.Log.WithError(err).WithFields(logrus.Fields{"host": name, "kept": len(s.byName[name])}).
				Warn(s.opts.Unresolved)
			continue
		}
		addrs := make([]netip.Addr, len(ips))
		for i, ip := range ips {
			addrs[i] = ip.Unmap()
		}
		s.byName[name] = addrs
	}
	next := make(map[netip.Addr]struct{}, len(s.literals)+len(s.names))
	for _, ip := range s.literals {
		next[ip] = struct{}{}
	}
	for _, ips := range s.byName {
		for _, ip := range ips {
			next[ip] = struct{}{}
		}
	}
	s.addrs.Store(&next)
}
