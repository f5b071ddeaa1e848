package route

import "time"

// Heartbeat refreshes the live entry of (cluster, addr), BROKER_HEARTBEAT
// (protocol.md 2.21). It takes no lock and allocates nothing; an unknown
// broker is ignored and reported as false.
func (m *Manager) Heartbeat(cluster, addr string, now time.Time) bool {
	entry, ok := m.current.Load().live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if !ok {
		return false
	}
	entry.lastUpdateMillis.Store(now.UnixMilli())
	return true
}

// QueryDataVersion answers QUERY_DATA_VERSION (2.18): changed is true when
// (cluster, addr) is not live or its stored DataVersion differs from dv (a nil
// dv, an absent body, always differs). A live entry is also refreshed, since
// brokers use this request as a heartbeat. stored is the broker's stored
// version, nil when unknown; it must not be modified.
func (m *Manager) QueryDataVersion(cluster, addr string, dv *DataVersion, now time.Time) (changed bool, stored *DataVersion) {
	entry, ok := m.current.Load().live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if !ok {
		return true, nil
	}
	entry.lastUpdateMillis.Store(now.UnixMilli())
	return dv == nil || *dv != entry.dataVersion, &entry.dataVersion
}

// Generation returns the registration generation of the live entry of
// (cluster, addr), 0 when there is none. The daemon captures it when an
// UNREGISTER_BROKER request arrives and passes it in UnregisterRequest, so the
// request is dropped if the broker registered again before it was applied
// (apache/rocketmq#11043).
func (m *Manager) Generation(cluster, addr string) uint64 {
	entry, ok := m.current.Load().live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if !ok {
		return 0
	}
	return entry.generation
}
