package remoting

import (
	"bytes"
	"hash/maphash"
)

// fastHeaderMemo remembers the fast-path headers of broker requests
// (BROKER_HEARTBEAT, QUERY_DATA_VERSION) an event loop has scanned. A broker
// sends the same header every time apart from its opaque, so the memo finds
// a header's opaque from its end (Java's layout), looks up the bytes before
// it, and when both sides of the opaque equal a header scanned before, takes
// that scan's result with the new opaque: ~50 ns instead of a 250-350 ns
// scan, which was a fifth of a heartbeat's CPU.
//
// Why that is the scan's answer: the scan reads a header front to back
// without looking past the value it is at, so on equal bytes before the
// opaque it reaches the opaque in the same state; the opaque is then a plain
// number ending where the remembered one ended, and the equal bytes after it
// finish the scan as before. FuzzFastHeaderMemoAgreesWithTheScan checks it.
//
// One memo per event loop, used by that loop only (no lock). Route queries
// are not remembered by their bytes (clients ask for many topics) but by
// their layout, with the topic a hole like the opaque (fast_route_memo.go);
// but a signed one, whose signature changes with its topic, by its bytes.
type fastHeaderMemo struct {
	seed    maphash.Seed
	entries [fastHeaderMemoSize]fastMemoEntry
	tick    uint64 // counts lookups found and headers kept, for fastMemoEntry.used
	// routes are the route query layouts seen; nextRoute the slot the next
	// one learned takes.
	routes    [routeLayouts]routeLayout
	nextRoute int
}

// fastHeaderMemoSize is how many headers a loop remembers (each in one of
// two slots by hash, so a broker beyond them costs one scan more, never a
// wrong answer),
// and maxMemoHeader the longest header it keeps: a Java broker's are 200-400
// bytes, so a loop's memo holds under 400 KiB, whatever its peers send.
const (
	fastHeaderMemoSize = 256
	maxMemoHeader      = 1024
)

// fastMemoEntry is one remembered header: the bytes before its opaque's
// digits and after them, and the scan's result, whose ext keys and values
// alias prefix, with the broker identity of its code found once.
type fastMemoEntry struct {
	hash           uint64
	used           uint64 // the memo's tick when last found or kept
	prefix, suffix []byte
	header         fastHeader
}

func newFastHeaderMemo() *fastHeaderMemo { return &fastHeaderMemo{seed: maphash.MakeSeed()} }

// The keys around a Java header's opaque: Java writes the keys in name order,
// so the opaque is followed by serializeTypeCurrentRPC and version.
const (
	javaOpaqueKey   = `"opaque":`
	javaAfterOpaque = `,"serializeTypeCurrentRPC":"JSON","version":`
)

// memoizedCode says whether a header is of a request the memo keeps: it
// starts as Java writes a heartbeat or a data version query.
func memoizedCode(data []byte) bool {
	return hasPrefixString(data, `{"code":904,`) || hasPrefixString(data, `{"code":322,`)
}

// scan is scanFastHeader, through the memo when m is not nil.
func (m *fastHeaderMemo) scan(data []byte) (fastHeader, bool) {
	var h fastHeader
	ok := m.scanTo(data, &h)
	return h, ok
}

// scanTo is scan into h, which spares the fast path copies of a header
// (~300 bytes, a third of a route query's memo lookup when returned).
func (m *fastHeaderMemo) scanTo(data []byte, h *fastHeader) (ok bool) {
	if m != nil && len(data) <= maxMemoHeader && hasPrefixString(data, routeMemoPrefix) {
		return m.scanRoute(data, h)
	}
	return m.scanBroker(data, h)
}

// scanBroker is scanTo for any header but a route query's.
func (m *fastHeaderMemo) scanBroker(data []byte, into *fastHeader) (ok bool) {
	if m == nil || len(data) > maxMemoHeader || !memoizedCode(data) {
		*into, ok = scanFastHeader(data)
		return ok
	}
	return m.scanExact(data, into)
}

// scanExact is scanFastHeader through the memo's entries: a header equal
// to one remembered but for its opaque takes that one's scan.
func (m *fastHeaderMemo) scanExact(data []byte, into *fastHeader) (ok bool) {
	if m.lookupExact(data, into) {
		return true
	}
	if *into, ok = scanFastHeader(data); ok {
		m.rememberExact(data, into)
	}
	return ok
}

// lookupExact reads data into into when the memo holds a header equal to
// it but for its opaque.
func (m *fastHeaderMemo) lookupExact(data []byte, into *fastHeader) bool {
	start, end, found := javaOpaqueSpan(data)
	if !found {
		return false
	}
	hash := maphash.Bytes(m.seed, data[:start])
	first, second := memoSlots(hash)
	e := &m.entries[first]
	if !e.holds(hash, data[:start], data[end:]) {
		if e = &m.entries[second]; !e.holds(hash, data[:start], data[end:]) {
			return false
		}
	}
	s := jsonScanner{data: data, pos: start}
	opaque, ok := s.plainInt32()
	if !ok || s.pos != end {
		return false
	}
	m.tick++
	e.used = m.tick
	*into = e.header
	into.opaque = opaque
	return true
}

// holds says whether e keeps the header of hash with prefix and suffix
// around its opaque.
func (e *fastMemoEntry) holds(hash uint64, prefix, suffix []byte) bool {
	return e.hash == hash && e.prefix != nil && bytes.Equal(e.prefix, prefix) && bytes.Equal(e.suffix, suffix)
}

// memoSlots are the two entries a header of hash may be kept in: two
// choices, so that two headers of one slot do not take turns evicting each
// other (100 signed route queries in 256 single slots collided a third of
// the time).
func memoSlots(hash uint64) (first, second uint64) {
	return hash % fastHeaderMemoSize, (hash >> 32) % fastHeaderMemoSize
}

// rememberExact keeps h, the scan of data, when data is in Java's layout.
func (m *fastHeaderMemo) rememberExact(data []byte, h *fastHeader) {
	start, end, found := javaOpaqueSpan(data)
	if found && h.opaqueStart == start && h.opaqueEnd == end {
		hash := maphash.Bytes(m.seed, data[:start])
		first, second := memoSlots(hash)
		e := &m.entries[first]
		if other := &m.entries[second]; e.prefix != nil && (other.prefix == nil || other.used < e.used) {
			e = other // the first is taken and the second free or used longer ago
		}
		m.tick++
		e.used = m.tick
		e.remember(hash, data, h)
	}
}

// javaOpaqueSpan finds the digits of the opaque of a header in Java's layout
// from its end: `"opaque":` digits `,"serializeTypeCurrentRPC":"JSON","version":` digits `}`.
// Any other layout is not found (and is scanned, not remembered).
func javaOpaqueSpan(data []byte) (start, end int, found bool) {
	last := len(data) - 1
	if last < 0 || data[last] != '}' {
		return 0, 0, false
	}
	i := digitsBefore(data, last)
	if i == last || i < len(javaAfterOpaque) || string(data[i-len(javaAfterOpaque):i]) != javaAfterOpaque {
		return 0, 0, false
	}
	end = i - len(javaAfterOpaque)
	start = digitsBefore(data, end)
	if start > 0 && data[start-1] == '-' {
		start--
	}
	if start == end || start < len(javaOpaqueKey) || string(data[start-len(javaOpaqueKey):start]) != javaOpaqueKey {
		return 0, 0, false
	}
	return start, end, true
}

// digitsBefore is where the run of decimal digits that ends at end begins.
func digitsBefore(data []byte, end int) int {
	i := end
	for i > 0 && data[i-1] >= '0' && data[i-1] <= '9' {
		i--
	}
	return i
}

// remember keeps h, scanned from data, reusing the entry's buffers. A header
// whose ext keys or values do not all lie in the bytes before the opaque
// (unescaped into buffers of their own) is not kept.
func (e *fastMemoEntry) remember(hash uint64, data []byte, h *fastHeader) {
	prefix := data[:h.opaqueStart]
	e.prefix = append(e.prefix[:0], prefix...)
	kept, ok := rebaseExt(h, e.prefix, prefix)
	if !ok {
		e.prefix = nil // the entry is unused until a header is kept in it
		return
	}
	e.suffix = append(e.suffix[:0], data[h.opaqueEnd:]...)
	kept.identity = knownIdentity{}
	id := &kept.identity
	switch kept.code {
	case BROKER_HEARTBEAT:
		id.cluster, id.addr, id.ok = kept.heartbeat()
	case QUERY_DATA_VERSION:
		id.cluster, id.addr, id.ok = kept.brokerIdentity()
	}
	id.code = kept.code // set after the lookups, which read a known identity first
	if kept.code == GET_ROUTEINFO_BY_TOPIC {
		// a signed route query's digest, found once for all its repeats
		kept.signed, kept.hasSigned = kept.signedDigest(nil)
		kept.signedKnown = true
	}
	e.hash, e.header = hash, kept
}

// rebaseExt is h with its ext keys and values moved from original into
// copied, its copy; false when one does not lie in original.
func rebaseExt(h *fastHeader, copied, original []byte) (fastHeader, bool) {
	kept := *h
	for i := range h.ext.n {
		key, okKey := rebase(copied, original, h.ext.keys[i])
		value, okValue := rebase(copied, original, h.ext.value[i])
		if !okKey || !okValue {
			return kept, false
		}
		kept.ext.keys[i], kept.ext.value[i] = key, value
	}
	return kept, true
}

// rebase returns the part of copied that b is of original, whose copy it
// is; false when b is not inside original.
func rebase(copied, original, b []byte) ([]byte, bool) {
	if len(b) == 0 {
		return copied[:0], true
	}
	offset, ok := offsetIn(original, b)
	if !ok {
		return nil, false
	}
	return copied[offset : offset+len(b) : offset+len(b)], true
}
