package route

import (
	"cmp"
	"slices"
	"unicode/utf16"
)

// Java's hash maps iterate in bin order, and a few answers expose that order
// where it picks one element: GET_SYSTEM_TOPIC_LIST_FROM_NS reports the
// address of the "first" broker group of brokerAddrTable (a
// ConcurrentHashMap created with capacity 128, so 256 bins). Ordering names
// the same way makes our pick the one a Java NameServer makes for the same
// state, which the recorded exchange 030 shows.

// brokerAddrTableBins is the bin count of Java's brokerAddrTable before it
// grows: ConcurrentHashMap(128) sizes its table to 256.
const brokerAddrTableBins = 256

// javaStringHash is Java's String.hashCode, computed over UTF-16 code units.
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			h = 31*h + r1
			h = 31*h + r2
			continue
		}
		h = 31*h + r
	}
	return h
}

// javaHashBin is the bin of a key with hash h in a table of n bins (a power of
// two), with ConcurrentHashMap's spread function.
func javaHashBin(h int32, n int) int {
	spread := (h ^ int32(uint32(h)>>16)) & 0x7FFFFFFF
	return int(spread) & (n - 1)
}

// javaTableBins is the bin count of a Java hash table created with `initial`
// bins once it holds count entries (it doubles past a 0.75 load factor).
func javaTableBins(initial, count int) int {
	n := initial
	for count > n*3/4 {
		n *= 2
	}
	return n
}

// sortJavaHashOrder sorts names in the iteration order of a Java hash table
// with `initial` bins; names sharing a bin keep a deterministic (sorted) order,
// where Java would keep insertion order.
func sortJavaHashOrder(names []string, initial int) {
	n := javaTableBins(initial, len(names))
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(javaHashBin(javaStringHash(a), n), javaHashBin(javaStringHash(b), n)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}
