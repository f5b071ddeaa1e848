package replicas

import (
	"math"
	"slices"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// epochCacheLimit bounds the epochs a broker keeps for GET_BROKER_EPOCH_CACHE:
// one is added per master change, so the oldest go past this many (Java trims
// its epoch file only when commit log files are deleted).
const epochCacheLimit = 1024

// epochLog is the master epochs this broker learnt from the controller, in
// order, each starting at the simulated offset the broker had when it learnt
// it. Java's entries start where the master wrote the epoch's first message
// and a slave copies its master's list; the route-only broker has no commit
// log, so its entries are its own offsets, and it knows only the epochs
// since it started (a restarted broker starts a new list).
type epochLog struct {
	entries []wire.EpochEntry
}

// add records a new master epoch at offset: the previous entry ends there.
// Only a higher epoch is added, as changeRole only takes a higher one.
func (l *epochLog) add(epoch int32, offset int64) {
	if n := len(l.entries); n > 0 {
		if l.entries[n-1].Epoch >= epoch {
			return
		}
		l.entries[n-1].EndOffset = offset
	}
	l.entries = append(l.entries, wire.EpochEntry{Epoch: epoch, StartOffset: offset, EndOffset: math.MaxInt64})
	if len(l.entries) > epochCacheLimit {
		l.entries = slices.Delete(l.entries, 0, len(l.entries)-epochCacheLimit)
	}
}

// EpochCache is GET_BROKER_EPOCH_CACHE's answer (Java
// AdminBrokerProcessor.getBrokerEpochCache): the broker's identity with the
// id it registers under (0 as master, its controller id as slave, as Java's
// brokerConfig.brokerId), its epochs, and as maxOffset the simulated offset
// it sends the controller in its heartbeats (Java: the commit log's max
// physical offset). The last entry's endOffset stays math.MaxInt64, as in
// Java; getBrokerEpoch prints maxOffset there.
func (m *Manager) EpochCache() *wire.EpochEntryCache {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &wire.EpochEntryCache{
		ClusterName: m.self.ClusterName, BrokerName: m.self.BrokerName, BrokerID: m.roleLocked().RegisterID(),
		EpochList: slices.Clone(m.epochs.entries), MaxOffset: m.Offset(),
	}
}
