// Package latest hands a lagging consumer only the newest value of each
// key: a producer that must not block (raft's apply goroutine) puts, and the
// consumer takes whatever waits when it gets round to it. Values of one key
// coalesce, so the backlog is bounded by the number of keys, and that by
// the mailbox's limit.
package latest

import "sync"

// Mailbox holds at most one pending value per key, at most Max keys.
type Mailbox[K comparable, V any] struct {
	max     int
	mu      sync.Mutex
	pending map[K]V
	order   []K // keys in first-put order
	ready   chan struct{}
}

// New returns a mailbox of at most limit pending keys (at least 1).
func New[K comparable, V any](limit int) *Mailbox[K, V] {
	return &Mailbox[K, V]{max: max(1, limit), pending: map[K]V{}, ready: make(chan struct{}, 1)}
}

// Put replaces k's pending value with v, never blocking. It returns false,
// dropping v, when the limit of other keys are pending.
func (b *Mailbox[K, V]) Put(k K, v V) bool {
	b.mu.Lock()
	if _, ok := b.pending[k]; !ok {
		if len(b.pending) >= b.max {
			b.mu.Unlock()
			return false
		}
		b.order = append(b.order, k)
	}
	b.pending[k] = v
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default: // a signal already waits
	}
	return true
}

// Ready receives a signal after a Put; Take may then find nothing (a Take
// after the Put already had it).
func (b *Mailbox[K, V]) Ready() <-chan struct{} { return b.ready }

// Take returns the pending values in their keys' first-put order and
// empties the mailbox.
func (b *Mailbox[K, V]) Take() []V {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]V, 0, len(b.order))
	for _, k := range b.order {
		out = append(out, b.pending[k])
	}
	clear(b.pending)
	b.order = b.order[:0]
	return out
}

// Serve hands each value put to fn, in Take's order, on the caller's
// goroutine, until done is closed.
func (b *Mailbox[K, V]) Serve(done <-chan struct{}, fn func(V)) {
	for {
		select {
		case <-done:
			return
		case <-b.ready:
			for _, v := range b.Take() {
				fn(v)
			}
		}
	}
}
