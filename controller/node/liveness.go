package node

import (
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/monotime"
)

// liveTable is the node's heartbeat table behind a lock held only for one
// map operation, so the event loop may feed it, plus which connection each
// member last heartbeated on (a closed connection is a dead broker at once).
type liveTable struct {
	mu         sync.Mutex
	table      *controller.HeartbeatTable
	connOf     map[controller.BrokerKey]uint64
	keysOfConn map[uint64]map[controller.BrokerKey]struct{}
	// max bounds the members held (controllerMaxHeartbeatEntries): past it a
	// new member's heartbeat is dropped, known ones still refresh.
	max int
}

func newLiveTable(max int) *liveTable {
	return &liveTable{table: controller.NewHeartbeatTable(), connOf: map[controller.BrokerKey]uint64{},
		keysOfConn: map[uint64]map[controller.BrokerKey]struct{}{}, max: max}
}

// nowMillis is the monotonic clock the table's times are on.
func nowMillis() int64 { return monotime.Nanotime() / 1e6 }

// observe records a heartbeat received on connection conn; it says false
// for a heartbeat without brokerId and for a new member past the bound.
func (t *liveTable) observe(hb *wire.BrokerHeartbeatRequest, conn uint64) (ok, full bool) {
	if hb.BrokerID == nil {
		return false, false
	}
	key := controller.BrokerKey{ClusterName: hb.ClusterName, BrokerName: hb.BrokerName, BrokerID: *hb.BrokerID}
	t.mu.Lock()
	defer t.mu.Unlock()
	old, known := t.connOf[key]
	if !known && len(t.connOf) >= t.max {
		return false, true
	}
	t.table.Observe(hb, nowMillis())
	if known && old != conn {
		t.forgetConnKey(old, key)
	}
	t.tieConn(key, conn)
	return true, false
}

// tieConn records that key's last heartbeat came on conn.
func (t *liveTable) tieConn(key controller.BrokerKey, conn uint64) {
	t.connOf[key] = conn
	keys := t.keysOfConn[conn]
	if keys == nil {
		keys = map[controller.BrokerKey]struct{}{}
		t.keysOfConn[conn] = keys
	}
	keys[key] = struct{}{}
}

func (t *liveTable) forgetConnKey(conn uint64, key controller.BrokerKey) {
	if keys := t.keysOfConn[conn]; keys != nil {
		delete(keys, key)
		if len(keys) == 0 {
			delete(t.keysOfConn, conn)
		}
	}
}

// closed removes the members that last heartbeated on conn and returns
// them with their last heartbeats.
func (t *liveTable) closed(conn uint64) []controller.ExpiredEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	var gone []controller.ExpiredEntry
	for key := range t.keysOfConn[conn] {
		e, _ := t.table.Get(key)
		t.table.Remove(key)
		delete(t.connOf, key)
		gone = append(gone, controller.ExpiredEntry{Key: key, Entry: e})
	}
	delete(t.keysOfConn, conn)
	return gone
}

// expire removes and returns the members whose heartbeat timed out, with
// their last heartbeats.
func (t *liveTable) expire() []controller.ExpiredEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	gone := t.table.ExpireEntries(nowMillis())
	for _, g := range gone {
		t.forgetConnKey(t.connOf[g.Key], g.Key)
		delete(t.connOf, g.Key)
	}
	return gone
}

// untilNextExpiry is the wait until the earliest member's heartbeat runs
// out; false when no member is held.
func (t *liveTable) untilNextExpiry() (time.Duration, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	next, ok := t.table.NextExpiry()
	if !ok {
		return 0, false
	}
	return time.Duration(next-nowMillis()) * time.Millisecond, true
}

// size is the members held.
func (t *liveTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.connOf)
}

// Alive and LiveInfo make the table a controller.Liveness read at the time
// of each call, each under the lock for one lookup.
func (t *liveTable) Alive(cluster, name string, id int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.table.At(nowMillis()).Alive(cluster, name, id)
}

func (t *liveTable) LiveInfo(cluster, name string, id int64) (controller.BrokerLiveInfo, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.table.At(nowMillis()).LiveInfo(cluster, name, id)
}
