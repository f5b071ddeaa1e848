package route

import (
	"bytes"
	"time"
)

// Heartbeat refreshes the live entry of (cluster, addr), BROKER_HEARTBEAT
// (protocol.md 2.21). It takes no lock and allocates nothing; an unknown
// broker is ignored and reported as false.
func (m *Manager) Heartbeat(cluster, addr string, now time.Time) bool {
	entry, ok := m.current.Load().live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	if !ok {
		return false
	}
	entry.refresh(now)
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
	entry.refresh(now)
	return dv == nil || *dv != entry.dataVersion, &entry.dataVersion
}

// QueryDataVersionJSON is QueryDataVersion for a version given as its JSON
// body; stored is the stored version's JSON (nil when the broker is
// unknown), shared and never to be modified. A body byte for byte equal to
// that encoding is that version, with nothing decoded: what a broker sends
// while nothing changed. Any other body is decoded and compared; ok is
// false, and nothing refreshed, when it does not decode.
func (m *Manager) QueryDataVersionJSON(cluster, addr string, body []byte, now time.Time) (stored []byte, changed, ok bool) {
	entry, known := m.current.Load().live.get(brokerAddrInfo{cluster: cluster, addr: addr})
	changed = true
	if len(body) > 0 && !(known && bytes.Equal(body, entry.dataVersionJSON)) {
		dv, err := DecodeDataVersion(body)
		if err != nil {
			return nil, false, false
		}
		changed = !known || dv != entry.dataVersion
	} else if len(body) > 0 {
		changed = false
	}
	if !known {
		return nil, true, true
	}
	entry.refresh(now)
	return entry.dataVersionJSON, changed, true
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
