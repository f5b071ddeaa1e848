package route

import (
	"hash/maphash"
	"iter"
	"maps"
)

// cowShardCount is the number of shards of a cowMap. A write copies only the
// shards it touches, so a registration that changes one broker's live entry
// copies 1/64 of the live table instead of all of it.
const cowShardCount = 64

// cowSeed hashes keys to shards; one seed per process is enough because the
// shard choice never leaves the process.
var cowSeed = maphash.MakeSeed()

// cowMap is an immutable sharded map that readers use without locks. The
// writer edits a copy through a cowEditor, which clones each shard at most
// once per transaction, then publishes the copy in a new snapshot.
type cowMap[K comparable, V any] struct {
	shards [cowShardCount]map[K]V
	size   int
}

func cowShardOf[K comparable](k K) int {
	return int(maphash.Comparable(cowSeed, k) & (cowShardCount - 1))
}

// get returns the value stored under k; it never allocates.
func (m *cowMap[K, V]) get(k K) (V, bool) {
	v, ok := m.shards[cowShardOf(k)][k]
	return v, ok
}

// len returns the number of entries.
func (m *cowMap[K, V]) len() int { return m.size }

// all yields every entry, shard by shard (no particular order).
func (m *cowMap[K, V]) all() iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, shard := range m.shards {
			for k, v := range shard {
				if !yield(k, v) {
					return
				}
			}
		}
	}
}

// cowEditor changes a cowMap that no reader can see yet (the map inside an
// unpublished snapshot). Shards still shared with the published snapshot are
// cloned on their first change.
type cowEditor[K comparable, V any] struct {
	target *cowMap[K, V]
	owned  [cowShardCount]bool
}

// ownShard returns shard i of the target, cloned first if still shared.
func (e *cowEditor[K, V]) ownShard(i int) map[K]V {
	if !e.owned[i] {
		// Clone copies the map's table as it is laid out; a make and a
		// Copy hashed every key again, and at 100,000 topics a 1,000-topic
		// registration, whose keys fall in every shard, spent ~60% of its
		// time there (BenchmarkScale/coldRegistration1000: 6.5-9.3 s ->
		// 2.5-2.8 s).
		shard := maps.Clone(e.target.shards[i])
		if shard == nil {
			shard = make(map[K]V, 1)
		}
		e.target.shards[i] = shard
		e.owned[i] = true
	}
	return e.target.shards[i]
}

// set stores v under k.
func (e *cowEditor[K, V]) set(k K, v V) {
	shard := e.ownShard(cowShardOf(k))
	if _, existed := shard[k]; !existed {
		e.target.size++
	}
	shard[k] = v
}

// delete removes k; removing an absent key copies nothing.
func (e *cowEditor[K, V]) delete(k K) {
	i := cowShardOf(k)
	if _, ok := e.target.shards[i][k]; !ok {
		return
	}
	delete(e.ownShard(i), k)
	e.target.size--
}
