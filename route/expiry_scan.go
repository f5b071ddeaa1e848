package route

import (
	"slices"
	"time"

	log "github.com/sirupsen/logrus"
)

// ScanExpired removes every live broker not heard from within its own
// heartbeat timeout (lastUpdate + timeout < now, protocol.md 4.6) and returns
// them; the daemon closes their connections. Only brokers whose deadline
// bucket has come are looked at, so the cost follows the number that expired.
// Removal is immediate, so the close event that follows finds nothing left
// to do (quirk Q30: no second unregistration).
func (m *Manager) ScanExpired(now time.Time) []RemovedBroker {
	m.mu.Lock()
	defer m.unlock()
	expired := m.expiry.collect(now.UnixMilli(), nil)
	if len(expired) == 0 {
		return nil
	}
	slices.SortFunc(expired, func(a, b *liveBroker) int { return compareAddrInfo(a.key, b.key) })
	for _, entry := range expired {
		// Debug: the eviction job warns once per broker with the removal.
		m.logLater(log.DebugLevel, log.Fields{"cluster": entry.key.cluster, "brokerAddr": entry.key.addr,
			"timeoutMillis": entry.timeoutMillis}, "broker expired")
	}
	t := m.begin()
	removed := m.removeLiveBrokers(t, expired)
	t.commit()
	return removed
}
