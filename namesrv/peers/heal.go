package peers

import (
	"strconv"
	"time"
)

// DefaultHealWindow is how long a route difference with a peer may last and
// still be one that heals by itself (peerRoutesHealMillis): a broker
// registers with each NameServer on its own schedule, every 30 s by default
// (Java's registerNameServerPeriod), so a broker registered on one but not
// yet on the other shows for up to one period, plus a check or two. One
// older than this is a broker that does not reach one of the two.
const DefaultHealWindow = 40 * time.Second

// difference is one item two NameServers' tables differ by: a broker
// address ("cluster/name/id=addr") or a topic, on one side only.
type difference struct {
	kind string // one of differenceKinds
	name string
}

// differenceKinds are the kinds of difference, in the order they are told.
var differenceKinds = []string{"broker addresses only here", "broker addresses only there", "topics only here", "topics only there"}

// healTracker remembers when each difference with each peer was first seen,
// so that the round can tell one still within the heal window from one that
// lasts. It is used by the watcher's goroutine only.
type healTracker struct {
	first map[string]map[difference]time.Time // by peer address
}

// classify splits the differences of one check of addr into those first
// seen less than window ago (healing) and the others (lasting), and forgets
// the ones no longer seen. A peer that is not up has its memory dropped.
func (h *healTracker) classify(addr string, seen []difference, now time.Time, window time.Duration) (lasting, healing []difference) {
	if h.first == nil {
		h.first = map[string]map[difference]time.Time{}
	}
	prev := h.first[addr]
	next := make(map[difference]time.Time, len(seen))
	for _, d := range seen {
		since, ok := prev[d]
		if !ok {
			since = now
		}
		next[d] = since
		if now.Sub(since) >= window {
			lasting = append(lasting, d)
		} else {
			healing = append(healing, d)
		}
	}
	h.first[addr] = next
	return lasting, healing
}

// keep drops the memory of every peer not in addrs.
func (h *healTracker) keep(addrs map[string]bool) {
	for addr := range h.first {
		if !addrs[addr] {
			delete(h.first, addr)
		}
	}
}

// lines tells differences a line per kind: the count, the kind and the
// first maxExamples names ("2 broker addresses only there: c/b/0=a:1, …").
func lines(diffs []difference) []string {
	var out []string
	for _, kind := range differenceKinds {
		var names []string
		for _, d := range diffs {
			if d.kind == kind {
				names = append(names, d.name)
			}
		}
		if len(names) > 0 {
			out = append(out, strconv.Itoa(len(names))+" "+kind+": "+joinFirst(names))
		}
	}
	return out
}
