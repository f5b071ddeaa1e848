package raftnet

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// ResolveInterval is the least time between two resolutions of the peers'
// host names that a connection from an unknown address starts: a stranger's
// connections cannot turn into a flood of DNS queries.
const ResolveInterval = 5 * time.Second

// ResolveTimeout bounds one resolution of one host name.
const ResolveTimeout = 5 * time.Second

// peerSet is the addresses a Raft connection may come from: the listed
// peers' hosts, IP literals as they are, names as last resolved.
type peerSet struct {
	// literals are the hosts given as IP addresses; names the others.
	literals []netip.Addr
	names    []string
	log      *logrus.Entry
	lookup   lookupFunc

	allowed atomic.Pointer[map[netip.Addr]struct{}]
	// byName keeps each name's last good answer: a name that fails to
	// resolve again keeps it. Guarded by mu, which also makes one
	// resolution run at a time.
	mu     sync.Mutex
	byName map[string][]netip.Addr
	// last is when the last resolution started, as time since start;
	// running is set while one runs in the background.
	last    atomic.Int64
	running atomic.Bool
	start   time.Time
}

// lookupFunc resolves a host name (net.DefaultResolver's, or a test's).
type lookupFunc func(ctx context.Context, host string) ([]netip.Addr, error)

func systemLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// newPeerSet resolves hosts' names once before it returns.
func newPeerSet(hosts []string, log *logrus.Entry, lookup lookupFunc) *peerSet {
	s := &peerSet{log: log, byName: map[string][]netip.Addr{}, start: time.Now(), lookup: lookup}
	for _, h := range hosts {
		if ip, err := netip.ParseAddr(h); err == nil {
			s.literals = append(s.literals, ip.Unmap())
		} else {
			s.names = append(s.names, h)
		}
	}
	s.resolve()
	return s
}

// contains says whether ip is a peer's address.
func (s *peerSet) contains(ip netip.Addr) bool {
	_, ok := (*s.allowed.Load())[ip.Unmap()]
	return ok
}

// refreshSoon resolves the names again in the background, unless there are
// none, one runs, or the last started less than ResolveInterval ago.
func (s *peerSet) refreshSoon() {
	if len(s.names) == 0 {
		return
	}
	now := int64(time.Since(s.start))
	if last := s.last.Load(); now-last < int64(ResolveInterval) || !s.running.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.running.Store(false)
		s.resolve()
	}()
}

// resolve looks every name up and publishes the new set.
func (s *peerSet) resolve() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last.Store(int64(time.Since(s.start)))
	for _, name := range s.names {
		ctx, cancel := context.WithTimeout(context.Background(), ResolveTimeout)
		ips, err := s.lookup(ctx, name)
		cancel()
		if err != nil || len(ips) == 0 {
			s.log.WithError(err).WithFields(logrus.Fields{"host": name, "kept": len(s.byName[name])}).
				Warn("controller peer's host does not resolve; Raft connections from it are refused until it does")
			continue
		}
		for i := range ips {
			ips[i] = ips[i].Unmap()
		}
		s.byName[name] = ips
	}
	allowed := make(map[netip.Addr]struct{}, len(s.literals)+len(s.names))
	for _, ip := range s.literals {
		allowed[ip] = struct{}{}
	}
	for _, ips := range s.byName {
		for _, ip := range ips {
			allowed[ip] = struct{}{}
		}
	}
	s.allowed.Store(&allowed)
}
