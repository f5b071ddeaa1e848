package controller

import (
	"cmp"
	"math"
	"slices"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// Heartbeat defaults for fields a broker leaves out (Java's
// DefaultBrokerHeartbeatManager and BrokerLiveInfo).
const (
	DefaultHeartbeatTimeoutMillis int64 = 10000
	DefaultElectionPriority       int32 = math.MaxInt32
)

// BrokerKey names one member across sets (Java's BrokerIdentityInfo).
type BrokerKey struct {
	ClusterName string
	BrokerName  string
	BrokerID    int64
}

// HeartbeatEntry is one member's last heartbeat.
type HeartbeatEntry struct {
	BrokerAddr           string
	LastUpdateMillis     int64
	HeartbeatTimeoutMill int64
	Epoch                int32
	MaxOffset            int64
	ConfirmOffset        int64
	ElectionPriority     int32
}

// HeartbeatTable is a node's local heartbeat table; times are milliseconds
// the caller reads from its clock. Not safe for concurrent use.
type HeartbeatTable struct {
	entries map[BrokerKey]*HeartbeatEntry
}

// NewHeartbeatTable returns an empty table.
func NewHeartbeatTable() *HeartbeatTable {
	return &HeartbeatTable{entries: map[BrokerKey]*HeartbeatEntry{}}
}

// Len is the number of members heard from and not yet expired or removed.
func (t *HeartbeatTable) Len() int { return len(t.entries) }

// Observe records a heartbeat received at nowMillis and says false, storing
// nothing, when it names no brokerId (the handler answers 2005). The time,
// timeout and priority always refresh; epoch, maxOffset and confirmOffset
// only move forward (a higher epoch, or the same epoch with a higher
// maxOffset), as Java's onBrokerHeartbeat.
func (t *HeartbeatTable) Observe(hb *wire.BrokerHeartbeatRequest, nowMillis int64) bool {
	if hb.BrokerID == nil {
		return false
	}
	key := BrokerKey{hb.ClusterName, hb.BrokerName, *hb.BrokerID}
	epoch, maxOffset, confirm := valueOr(hb.Epoch, -1), valueOr(hb.MaxOffset, -1), valueOr(hb.ConfirmOffset, -1)
	e, ok := t.entries[key]
	if !ok {
		e = &HeartbeatEntry{Epoch: epoch, MaxOffset: maxOffset, ConfirmOffset: confirm}
		t.entries[key] = e
	} else if epoch > e.Epoch || epoch == e.Epoch && maxOffset > e.MaxOffset {
		e.Epoch, e.MaxOffset, e.ConfirmOffset = epoch, maxOffset, confirm
	}
	e.BrokerAddr = hb.BrokerAddr
	e.LastUpdateMillis = nowMillis
	e.HeartbeatTimeoutMill = valueOr(hb.HeartbeatTimeoutMills, DefaultHeartbeatTimeoutMillis)
	e.ElectionPriority = valueOr(hb.ElectionPriority, DefaultElectionPriority)
	return true
}

// Remove forgets a member (its connection closed).
func (t *HeartbeatTable) Remove(key BrokerKey) { delete(t.entries, key) }

// Expire removes and returns, sorted, the members whose heartbeat is older
// than their timeout at nowMillis (Java's scanNotActiveBroker).
func (t *HeartbeatTable) Expire(nowMillis int64) []BrokerKey {
	gone := t.ExpireEntries(nowMillis)
	keys := make([]BrokerKey, len(gone))
	for i, g := range gone {
		keys[i] = g.Key
	}
	return keys
}

// ExpiredEntry is a member Expire removed, with its last heartbeat.
type ExpiredEntry struct {
	Key   BrokerKey
	Entry HeartbeatEntry
}

// ExpireEntries is Expire returning each removed member's last heartbeat.
func (t *HeartbeatTable) ExpireEntries(nowMillis int64) []ExpiredEntry {
	var gone []ExpiredEntry
	for key, e := range t.entries {
		if !e.aliveAt(nowMillis) {
			gone = append(gone, ExpiredEntry{key, *e})
			delete(t.entries, key)
		}
	}
	slices.SortFunc(gone, func(a, b ExpiredEntry) int {
		if c := cmp.Compare(a.Key.ClusterName, b.Key.ClusterName); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Key.BrokerName, b.Key.BrokerName); c != 0 {
			return c
		}
		return cmp.Compare(a.Key.BrokerID, b.Key.BrokerID)
	})
	return gone
}

// Get returns a copy of a member's last heartbeat, expired or not.
func (t *HeartbeatTable) Get(key BrokerKey) (HeartbeatEntry, bool) {
	e, ok := t.entries[key]
	if !ok {
		return HeartbeatEntry{}, false
	}
	return *e, true
}

// Put stores a member's heartbeat as given (one another node heard,
// its LastUpdateMillis already on this table's clock).
func (t *HeartbeatTable) Put(key BrokerKey, e HeartbeatEntry) { t.entries[key] = &e }

// NextExpiry returns the earliest moment, in the table's milliseconds, at
// which a member is expired (one past its last + timeout); false when the
// table is empty.
func (t *HeartbeatTable) NextExpiry() (int64, bool) {
	var next int64
	found := false
	for _, e := range t.entries {
		if at := e.LastUpdateMillis + e.HeartbeatTimeoutMill + 1; !found || at < next {
			next, found = at, true
		}
	}
	return next, found
}

// At returns the table's liveness as of nowMillis, for one validation.
func (t *HeartbeatTable) At(nowMillis int64) Liveness { return tableAt{t, nowMillis} }

func (e *HeartbeatEntry) aliveAt(nowMillis int64) bool {
	return e.LastUpdateMillis+e.HeartbeatTimeoutMill >= nowMillis
}

type tableAt struct {
	t   *HeartbeatTable
	now int64
}

func (a tableAt) entry(cluster, name string, id int64) (*HeartbeatEntry, bool) {
	e, ok := a.t.entries[BrokerKey{cluster, name, id}]
	return e, ok && e.aliveAt(a.now)
}

func (a tableAt) Alive(cluster, name string, id int64) bool {
	_, ok := a.entry(cluster, name, id)
	return ok
}

func (a tableAt) LiveInfo(cluster, name string, id int64) (BrokerLiveInfo, bool) {
	e, ok := a.entry(cluster, name, id)
	if !ok {
		return BrokerLiveInfo{}, false
	}
	return BrokerLiveInfo{BrokerID: id, Epoch: e.Epoch, MaxOffset: e.MaxOffset, ElectionPriority: e.ElectionPriority}, true
}

func valueOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
