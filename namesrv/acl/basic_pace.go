package acl

import (
	"net/netip"
	"sync"
	"time"
)

// Pacing of HTTP Basic credentials, per source address. A Basic request
// carries the secret itself, so each one is a guess; unpaced, the side port
// checked 1,500 a second from one peer. Each address has a bucket of
// BasicGuessBurst guesses, refilled at one per BasicGuessRefill; a check
// takes a guess and a check that admits gives it back, so an operator who
// is signed in is never slowed, while a guesser gets BasicGuessBurst tries,
// then one per BasicGuessRefill.
const (
	BasicGuessBurst  = 10
	BasicGuessRefill = time.Second
	// BasicPaceAddresses bounds the addresses followed at once (IPv4 by
	// address, IPv6 by /64, which one host can hold whole). When full,
	// addresses whose bucket is full again are forgotten; the rest of the
	// world then shares one bucket.
	BasicPaceAddresses = 4096
)

// guessBucket is one address's guesses left at a time.
type guessBucket struct {
	tokens float64
	at     time.Time
}

// refill brings b to now.
func (b *guessBucket) refill(now time.Time) {
	if b.at.IsZero() {
		b.tokens, b.at = BasicGuessBurst, now
		return
	}
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = min(BasicGuessBurst, b.tokens+float64(elapsed)/float64(BasicGuessRefill))
		b.at = now
	}
}

// basicPacer holds the buckets; its lock is held for a map operation and
// a little arithmetic, never across a check.
type basicPacer struct {
	mu       sync.Mutex
	buckets  map[netip.Prefix]*guessBucket
	overflow guessBucket
	pruned   time.Time // the last scan for idle buckets
}

// paceKey is the unit an address is paced by.
func paceKey(remote netip.Addr) netip.Prefix {
	bits := remote.BitLen()
	if remote.Is6() {
		bits = 64
	}
	prefix, err := remote.Prefix(bits)
	if err != nil {
		return netip.Prefix{} // the zero Addr: paced with the other unreadable peers
	}
	return prefix
}

// bucket returns remote's bucket, making room for it when the table is
// full; called with mu held.
func (p *basicPacer) bucket(key netip.Prefix, now time.Time) *guessBucket {
	if b, ok := p.buckets[key]; ok {
		return b
	}
	if p.buckets == nil {
		p.buckets = make(map[netip.Prefix]*guessBucket)
	}
	if len(p.buckets) >= BasicPaceAddresses && now.Sub(p.pruned) >= BasicGuessRefill {
		p.pruned = now // a scan at most once a refill period, however many newcomers
		for k, b := range p.buckets {
			if b.refill(now); b.tokens >= BasicGuessBurst {
				delete(p.buckets, k)
			}
		}
	}
	if len(p.buckets) >= BasicPaceAddresses {
		return &p.overflow
	}
	b := &guessBucket{}
	p.buckets[key] = b
	return b
}

// take takes one guess of remote's at now; false when none is left.
func (p *basicPacer) take(remote netip.Addr, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.bucket(paceKey(remote), now)
	b.refill(now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// giveBack returns the guess of a check that admitted.
func (p *basicPacer) giveBack(remote netip.Addr, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.bucket(paceKey(remote), now)
	b.refill(now)
	b.tokens = min(BasicGuessBurst, b.tokens+1)
}

// tracked is how many addresses are followed.
func (p *basicPacer) tracked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.buckets)
}
