// Package quiet keeps, oldest first, the connections of a listener that
// have sent nothing yet (or sit idle between requests), so that a listener
// at its connection cap can close the oldest of them for a newcomer
// instead of refusing the newcomer: 1,000 silent connections then cannot
// keep a real client out for a whole idle timeout, since a real client
// speaks at once and leaves the queue.
package quiet

import (
	"container/list"
	"sync"
	"sync/atomic"
	"time"
)

// Queue holds the quiet connections in the order they became quiet. Every
// method is safe from any goroutine and holds the lock only for list
// operations; a close runs after it is released.
type Queue struct {
	mu      sync.Mutex
	entries list.List // of *Entry, oldest at the front
	evicted atomic.Uint64
}

// Entry is one quiet connection in a Queue.
type Entry struct {
	elem  *list.Element
	since time.Time
	// spoke reports that the connection is no longer quiet (nil: it stays
	// quiet until removed); close closes it.
	spoke func() bool
	close func()
	gone  bool // removed from the list, under Queue.mu
}

// Add puts a connection quiet since since at the back. spoke (may be nil)
// is asked at eviction time whether it has spoken since; close closes it.
func (q *Queue) Add(since time.Time, spoke func() bool, close func()) *Entry {
	e := &Entry{since: since, spoke: spoke, close: close}
	q.mu.Lock()
	e.elem = q.entries.PushBack(e)
	q.mu.Unlock()
	return e
}

// Remove takes e out (it spoke, or closed); a nil or removed e is a no-op.
func (q *Queue) Remove(e *Entry) {
	if e == nil {
		return
	}
	q.mu.Lock()
	q.drop(e)
	q.mu.Unlock()
}

func (q *Queue) drop(e *Entry) {
	if !e.gone {
		e.gone = true
		q.entries.Remove(e.elem)
	}
}

// Evict closes the oldest connection quiet since before cutoff that has
// still not spoken, dropping on the way those that have; it reports
// whether it closed one. Connections quiet for less than that are left
// alone: a real client that connected a moment ago gets time to speak.
func (q *Queue) Evict(cutoff time.Time) bool {
	q.mu.Lock()
	var victim *Entry
	for front := q.entries.Front(); front != nil; front = q.entries.Front() {
		e := front.Value.(*Entry)
		if e.spoke != nil && e.spoke() {
			q.drop(e)
			continue
		}
		if e.since.After(cutoff) {
			break
		}
		q.drop(e)
		victim = e
		break
	}
	q.mu.Unlock()
	if victim == nil {
		return false
	}
	q.evicted.Add(1)
	victim.close()
	return true
}

// Len is the number of entries held, those that spoke since included.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.entries.Len()
}

// Evicted counts the connections Evict closed.
func (q *Queue) Evicted() uint64 { return q.evicted.Load() }
