package remoting

import "sync"

// sharedBodies counts each large answer body once in the server-wide
// outbound total, however many connections' queues hold it: a cached list
// (4.7 MB of GET_ALL_TOPIC_LIST_FROM_NAMESERVER at 100,000 topics) is one
// buffer for all of them, and counted once per connection 64 readers of it
// took the whole 256 MiB budget with 1 MiB of real output, so that every
// other client's list was answered SYSTEM_BUSY. The connections' own
// limits still count it for each (a peer's share of the work). A body is
// known by its first byte's address; a body built for one answer is simply
// counted once, by that answer.
type sharedBodies struct {
	mu   sync.Mutex
	refs map[*byte]*sharedBody
}

// sharedBody is one body held by queued answers: how many, and the size it
// was counted with.
type sharedBody struct {
	holders int
	size    int64
}

// chargeAnswer counts an answer in the server-wide total: its frame, and
// its body unless a queued answer holds the same body already. With refuse
// it counts nothing and reports false when that passes the budget. It
// returns the key under which the body is held (nil for a small body,
// counted with its frame).
func (s *Server) chargeAnswer(frame, body []byte, refuse bool) (key *byte, ok bool) {
	if len(body) < sharedBodyWrite {
		size := int64(len(frame) + len(body))
		if refuse {
			return nil, s.takeBudget(size)
		}
		s.outbound.total.Add(size)
		return nil, true
	}
	key = &body[0]
	shared := &s.outbound.shared
	shared.mu.Lock()
	defer shared.mu.Unlock()
	held := shared.refs[key]
	cost := int64(len(frame))
	if held == nil {
		cost += int64(len(body))
	}
	if refuse && !s.takeBudget(cost) {
		return nil, false
	}
	if !refuse {
		s.outbound.total.Add(cost)
	}
	if held == nil {
		if shared.refs == nil {
			shared.refs = map[*byte]*sharedBody{}
		}
		held = &sharedBody{size: int64(len(body))}
		shared.refs[key] = held
	}
	held.holders++
	return key, true
}

// unchargeAnswer takes back what chargeAnswer counted for an answer once it
// is given to gnet whole (gnet's buffer is counted on its own) or dropped.
func (s *Server) unchargeAnswer(frame, body []byte, key *byte) {
	if key == nil {
		s.outbound.total.Add(-int64(len(frame) + len(body)))
		return
	}
	s.outbound.total.Add(-int64(len(frame)))
	shared := &s.outbound.shared
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if held := shared.refs[key]; held != nil {
		if held.holders--; held.holders == 0 {
			delete(shared.refs, key)
			s.outbound.total.Add(-held.size)
		}
	}
}
