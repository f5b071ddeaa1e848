package route

import (
	"time"

	log "github.com/sirupsen/logrus"
)

// NoConn is the connection of a live entry no connection registered: a
// master an election put at id 0 before it registered here. Connection ids
// start at 1, so no close event ever names it.
const NoConn ConnID = 0

// liveUntilRegistered gives the address an election put at id 0 a live entry
// when it has none (it never registered here, or left): without one it would
// stay at id 0 for good, since only live entries expire. The entry lasts the
// default broker timeout from now, like a broker that registered once
// without heartbeatTimeoutMillis and stopped; the master's own registration
// replaces it (another connection), its heartbeats refresh it.
func (m *Manager) liveUntilRegistered(t *txn, key brokerAddrInfo, brokerName string, now time.Time) {
	if _, ok := t.view().live.get(key); ok {
		return
	}
	m.generationClock++
	entry := &liveBroker{
		key:             key,
		timeoutMillis:   t.view().cfg.DefaultHeartbeatTimeout.Milliseconds(),
		dataVersionJSON: EncodeDataVersion(nil, DataVersion{}),
		conn:            NoConn,
		brokerName:      brokerName,
		generation:      m.generationClock,
	}
	entry.lastUpdateMillis.Store(now.UnixMilli())
	t.setLive(key, entry)
	m.logLater(log.DebugLevel, log.Fields{"cluster": key.cluster, "brokerAddr": key.addr, "brokerName": brokerName,
		"timeoutMillis": entry.timeoutMillis}, "elected master not registered here: live until the default broker timeout")
}
