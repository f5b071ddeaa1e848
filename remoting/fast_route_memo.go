package remoting

import (
	"bytes"
	"unsafe"
)

// routeLayout is a route query header the fast path scanned once, cut at
// its two parts that change from query to query: the opaque's digits and
// the topic's value. A client writes every route query in one layout, so a
// header whose bytes equal a remembered layout's outside those two holes,
// with a plain number in one and a plain string in the other, is read with
// two comparisons instead of a scan: ~60-90 ns instead of 200-450, and the
// scan was the largest part of a route query's own CPU.
//
// Why that is the scan's answer: the scan reads a header front to back and
// its state after a bare number or a string without escapes does not depend
// on their digits or bytes; the same literal bytes around them then lead it
// through the same keys to the same end. The new topic's length is checked
// against the ext value limit the scan checks. FuzzRouteLayoutMemoAgreesWithTheScan
// checks it.
type routeLayout struct {
	// head, middle and tail are the literal bytes before the first hole,
	// between the two and after the second; nil head: slot unused.
	head, middle, tail []byte
	// opaqueFirst says the opaque comes before the topic (the Go client's
	// layout); Java writes extFields, and with it the topic, first.
	opaqueFirst bool
	// header is the scan's result, its ext keys and values aliasing kept;
	// topic is the index of the topic among its ext fields.
	header fastHeader
	topic  int
	kept   []byte
}

// routeLayouts is how many layouts a loop remembers: one per kind of
// client it serves (Java, Go, another order or version); a further one
// takes the oldest slot.
const routeLayouts = 4

// routeMemoPrefix starts every route query header a layout is kept for:
// code first, as both Java and the Go client write it.
const routeMemoPrefix = `{"code":105,`

// scanRoute is scanFastHeader for a route query header, through the loop's
// layouts, into h.
func (m *fastHeaderMemo) scanRoute(data []byte, h *fastHeader) bool {
	for i := range m.routes {
		if m.routes[i].match(data, h) {
			return true
		}
	}
	if m.lookupExact(data, h) {
		return true
	}
	var ok bool
	if *h, ok = scanFastHeader(data); !ok {
		return false
	}
	if _, signed := h.ext.get(credentialKeys[1]); signed {
		// its signature literal changes with the topic, so a layout learned
		// of it would match that topic's query only: the same client's same
		// query is remembered by its bytes instead
		m.rememberExact(data, h)
	} else if m.routes[m.nextRoute].learn(data, h) {
		m.nextRoute = (m.nextRoute + 1) % routeLayouts
	}
	return ok
}

// match reads data into h when it is in l's layout.
func (l *routeLayout) match(data []byte, h *fastHeader) bool {
	if l.head == nil || !bytes.HasPrefix(data, l.head) {
		return false
	}
	opaqueAt, topicAt := len(l.head), len(l.head)
	var opaqueEnd, topicEnd int
	var opaque int32
	var ok bool
	if l.opaqueFirst {
		if opaque, opaqueEnd, ok = holeNumber(data, opaqueAt); !ok || !bytes.HasPrefix(data[opaqueEnd:], l.middle) {
			return false
		}
		topicAt = opaqueEnd + len(l.middle)
		if topicEnd, ok = holeString(data, topicAt); !ok || !bytes.Equal(data[topicEnd:], l.tail) {
			return false
		}
	} else {
		if topicEnd, ok = holeString(data, topicAt); !ok || !bytes.HasPrefix(data[topicEnd:], l.middle) {
			return false
		}
		opaqueAt = topicEnd + len(l.middle)
		if opaque, opaqueEnd, ok = holeNumber(data, opaqueAt); !ok || !bytes.Equal(data[opaqueEnd:], l.tail) {
			return false
		}
	}
	*h = l.header
	h.opaque, h.opaqueStart, h.opaqueEnd = opaque, opaqueAt, opaqueEnd
	h.ext.value[l.topic] = data[topicAt:topicEnd]
	return true
}

// holeNumber reads the bare int32 at data[at:], as the scan's plainInt32.
func holeNumber(data []byte, at int) (v int32, end int, ok bool) {
	s := jsonScanner{data: data, pos: at}
	v, ok = s.plainInt32()
	return v, s.pos, ok
}

// holeString finds the end of the topic at data[at:]: a closing quote after
// one to MaxExtValueLength bytes, none of them a backslash or a control
// character (an escape leaves the header to the scan).
func holeString(data []byte, at int) (end int, ok bool) {
	end = at + plainStringBytes(data[at:])
	for end < len(data) && data[end] != '"' {
		if c := data[end]; c == '\\' || c < 0x20 {
			return 0, false
		}
		end++
	}
	return end, end > at && end-at <= MaxExtValueLength && end < len(data)
}

// learn keeps the layout of data, whose scan h took as a route query, and
// says whether it did: only a header whose opaque is a bare number and
// whose topic is a plain string in its bytes (no escapes) is kept.
func (l *routeLayout) learn(data []byte, h *fastHeader) bool {
	if _, isRoute := h.routeQuery(); !isRoute || !hasPrefixString(data, routeMemoPrefix) ||
		h.opaqueEnd <= h.opaqueStart || data[h.opaqueStart] != '-' && (data[h.opaqueStart] < '0' || data[h.opaqueStart] > '9') {
		return false
	}
	topic := -1
	for i := range h.ext.n {
		if string(h.ext.keys[i]) == "topic" {
			topic = i
		}
	}
	if topic < 0 {
		return false
	}
	start, ok := offsetIn(data, h.ext.value[topic])
	end := start + len(h.ext.value[topic])
	if !ok || start == 0 || data[start-1] != '"' || end >= len(data) || data[end] != '"' {
		return false // unescaped into a buffer of its own
	}
	l.kept = append(l.kept[:0], data...)
	kept, ok := rebaseExt(h, l.kept, data)
	if !ok {
		l.head = nil // the slot is unused until a layout is kept in it
		return false
	}
	kept.identity = knownIdentity{}
	first, second := [2]int{start, end}, [2]int{h.opaqueStart, h.opaqueEnd}
	l.opaqueFirst = h.opaqueStart < start
	if l.opaqueFirst {
		first, second = second, first
	}
	l.head, l.middle, l.tail = l.kept[:first[0]], l.kept[first[1]:second[0]], l.kept[second[1]:]
	l.header, l.topic = kept, topic
	return true
}

// offsetIn is where b starts in data, when b is a non-empty part of it.
func offsetIn(data, b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	offset := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if offset > uintptr(len(data)) || uintptr(len(b)) > uintptr(len(data))-offset {
		return 0, false
	}
	return int(offset), true
}
