package node

import (
	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// adoptedConn is the connection an entry taken over from another node's
// answer is tied to: none (remoting numbers connections from 1), so no
// close removes it; it expires at its own deadline or a heartbeat of the
// broker itself replaces it.
const adoptedConn uint64 = 0

// report is what this node holds of keys for a liveness question (5020):
// the age of each held member's last heartbeat on this node's clock, and
// that heartbeat's fields. A member not held is left out.
func (t *liveTable) report(keys []wire.BrokerKeyJSON) []wire.BrokerLivenessEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := nowMillis()
	out := make([]wire.BrokerLivenessEntry, 0, len(keys))
	for _, k := range keys {
		e, ok := t.table.Get(controller.BrokerKey{ClusterName: k.ClusterName, BrokerName: k.BrokerName, BrokerID: k.BrokerID})
		if !ok {
			continue
		}
		out = append(out, wire.BrokerLivenessEntry{BrokerKeyJSON: k, AgeMillis: max(now-e.LastUpdateMillis, 0),
			HeartbeatTimeoutMillis: e.HeartbeatTimeoutMill, BrokerAddr: e.BrokerAddr, Epoch: e.Epoch, MaxOffset: e.MaxOffset,
			ConfirmOffset: e.ConfirmOffset, ElectionPriority: e.ElectionPriority})
	}
	return out
}

// entry is a copy of a member's last heartbeat on this node, expired or not.
func (t *liveTable) entry(key controller.BrokerKey) (controller.HeartbeatEntry, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.table.Get(key)
}

// adopt takes over another node's newer heartbeat of a member (its
// LastUpdateMillis already on this node's clock); it says whether it did:
// a heartbeat this node holds that is as new or newer is kept, and a new
// member past the bound is not taken.
func (t *liveTable) adopt(key controller.BrokerKey, e controller.HeartbeatEntry) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, held := t.table.Get(key)
	if held && old.LastUpdateMillis >= e.LastUpdateMillis {
		return false
	}
	conn, known := t.connOf[key]
	if !known && len(t.connOf) >= t.max {
		return false
	}
	if known && conn != adoptedConn {
		t.forgetConnKey(conn, key)
	}
	t.table.Put(key, e)
	t.tieConn(key, adoptedConn)
	return true
}

// longestTimeout is the longest heartbeat timeout among the members held,
// false when none is: the grace of a broker whose own timeout this node
// does not know (brokers of one deployment share theirs).
func (t *liveTable) longestTimeout() (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var longest int64
	found := false
	for key := range t.connOf {
		if e, ok := t.table.Get(key); ok && (!found || e.HeartbeatTimeoutMill > longest) {
			longest, found = e.HeartbeatTimeoutMill, true
		}
	}
	return longest, found
}
