package main

import (
	"cmp"
	"slices"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/route"
)

// Java's HashMap (and HashSet) constants: a new map gets 16 bins at its
// first insert, doubles past a 0.75 load, and a bin of more than
// treeifyThreshold entries doubles a table smaller than minTreeifyBins
// instead of becoming a tree.
const (
	javaHashMapInitialBins = 16
	javaTreeifyThreshold   = 8
	javaMinTreeifyBins     = 64
)

// javaHashMapOrder returns the indexes of distinct keys, given by their
// hashCode in insertion order, in the order a java.util.HashMap created
// with `new HashMap<>()` iterates them: by bin, and within a bin by
// insertion (resizes keep the relative order of a bin's entries). Bins that
// Java turns into trees (more than 8 colliding keys in 64 bins or more)
// keep insertion order here, where Java's tree order may differ.
func javaHashMapOrder(hashes []int32) []int {
	bins := javaHashMapBins(hashes)
	order := make([]int, len(hashes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(javaHashMapBin(hashes[a], bins), javaHashMapBin(hashes[b], bins))
	})
	return order
}

// javaHashMapBins replays the inserts to find the final table size.
func javaHashMapBins(hashes []int32) int {
	bins := javaHashMapInitialBins
	counts := map[int]int{}
	for i, h := range hashes {
		bin := javaHashMapBin(h, bins)
		counts[bin]++
		if counts[bin] > javaTreeifyThreshold && bins < javaMinTreeifyBins {
			bins *= 2
			recountUpTo(counts, hashes[:i+1], bins)
		}
		if i+1 > bins*3/4 {
			bins *= 2
			recountUpTo(counts, hashes[:i+1], bins)
		}
	}
	return bins
}

// recountUpTo refills the bin counts of the first keys for a new size.
func recountUpTo(counts map[int]int, hashes []int32, bins int) {
	clear(counts)
	for _, h := range hashes {
		counts[javaHashMapBin(h, bins)]++
	}
}

// javaHashMapBin is HashMap's bin: the hash with its high half folded in.
func javaHashMapBin(h int32, bins int) int {
	return int(uint32(h^int32(uint32(h)>>16)) & uint32(bins-1))
}

// messageQueueHash is Java's MessageQueue.hashCode.
func messageQueueHash(mq admin.MessageQueue) int32 {
	h := int32(1)
	h = 31*h + route.JavaStringHash(mq.BrokerName)
	h = 31*h + mq.QueueID
	return 31*h + route.JavaStringHash(mq.Topic)
}

// javaHashOrderedKeys returns string keys in a HashMap's iteration order
// when inserted in the given order.
func javaHashOrderedKeys(keys []string) []string {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = route.JavaStringHash(k)
	}
	out := make([]string, len(keys))
	for i, idx := range javaHashMapOrder(hashes) {
		out[i] = keys[idx]
	}
	return out
}
