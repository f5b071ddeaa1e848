package route

import (
	"container/heap"
	"sync/atomic"
)

// expiryBucketMillis is the width of one expiry bucket. Brokers are checked
// every 5 s by default, so a 1 s bucket keeps the per-entry re-checks rare.
const expiryBucketMillis = 1000

// expiryWheel files live entries by deadline in 1-second buckets, so the
// expiry scan visits only buckets whose time has come: its cost follows the
// number of entries that expired (plus those that were refreshed and move to
// a later bucket once per timeout), never the number of live brokers.
//
// An entry is filed once, when it is created. Heartbeats only move its
// atomic last-update time; when its bucket comes due the scan sees the later
// deadline and refiles it. Retired entries (replaced or removed) are dropped
// when their bucket comes due, which bounds the wheel by the live entries
// plus those retired within one timeout. Guarded by Manager.mu.
type expiryWheel struct {
	buckets map[int64][]*liveBroker // bucket number -> entries filed there
	due     bucketHeap              // bucket numbers present, smallest first

	// examined counts the entries the scans looked at (metrics read it
	// without the lock).
	examined atomic.Uint64
}

func newExpiryWheel() expiryWheel {
	return expiryWheel{buckets: map[int64][]*liveBroker{}}
}

// file puts a live entry in the bucket of its current deadline.
func (w *expiryWheel) file(entry *liveBroker) {
	bucket := floorDiv(entry.deadlineMillis(), expiryBucketMillis)
	list, ok := w.buckets[bucket]
	if !ok {
		heap.Push(&w.due, bucket)
	}
	w.buckets[bucket] = append(list, entry)
}

// collect appends to out every current entry whose deadline is before
// nowMillis (Java: lastUpdate + timeout < now). It refiles entries that were
// refreshed since they were filed and drops retired ones.
func (w *expiryWheel) collect(nowMillis int64, out []*liveBroker) []*liveBroker {
	for len(w.due) > 0 {
		bucket := w.due[0]
		if bucket*expiryBucketMillis >= nowMillis {
			break // every deadline in it or later is >= now
		}
		heap.Pop(&w.due)
		list := w.buckets[bucket]
		delete(w.buckets, bucket)
		partial := (bucket+1)*expiryBucketMillis > nowMillis // now falls inside it
		w.examined.Add(uint64(len(list)))
		for _, entry := range list {
			switch {
			case entry.retired:
			case entry.deadlineMillis() < nowMillis:
				out = append(out, entry)
			default:
				w.file(entry)
			}
		}
		if partial {
			break // the refiled rest of this bucket is not due
		}
	}
	return out
}

// size counts filed entries, retired ones included (tests).
func (w *expiryWheel) size() int {
	n := 0
	for _, list := range w.buckets {
		n += len(list)
	}
	return n
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// bucketHeap is a min-heap of bucket numbers.
type bucketHeap []int64

func (h bucketHeap) Len() int           { return len(h) }
func (h bucketHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h bucketHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *bucketHeap) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *bucketHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
