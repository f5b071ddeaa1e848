package route

import (
	"strings"

	log "github.com/sirupsen/logrus"
)

// ConnectionClosed removes every broker whose current live entry was
// registered over conn (Java onChannelDestroy, protocol.md 4.6) and returns
// them. It is fenced by connection identity: a broker that registered again
// over a new connection is not touched by the old connection's close.
func (m *Manager) ConnectionClosed(conn ConnID) []RemovedBroker {
	return m.ConnectionsClosed([]ConnID{conn})
}

// removeLiveBrokers unregisters the brokers of the given live entries, each
// under the group that holds its address (Java setupUnRegisterRequest), and
// reports them with the notifications they caused.
func (m *Manager) removeLiveBrokers(t *txn, entries []*liveBroker) []RemovedBroker {
	items := make([]unregisterItem, 0, len(entries))
	removed := make([]RemovedBroker, 0, len(entries))
	for _, entry := range entries {
		brokerName, brokerID, known := memberOf(t.view(), entry)
		items = append(items, unregisterItem{
			req: UnregisterRequest{ClusterName: entry.key.cluster, BrokerAddr: entry.key.addr,
				BrokerName: brokerName, BrokerID: brokerID},
			groupKnown: known,
		})
		removed = append(removed, RemovedBroker{ClusterName: entry.key.cluster, BrokerAddr: entry.key.addr,
			BrokerName: brokerName, BrokerID: brokerID, Conn: entry.conn})
	}
	outcome := m.unregister(t, items, false)
	for i := range removed {
		if change, ok := outcome.notify[removed[i].BrokerName]; ok && change.OfflineBrokerAddr == removed[i].BrokerAddr {
			removed[i].MinBrokerIDChange = &change
		}
		// Debug: the daemon logs the removal once, with its cause (close or expiry).
		m.logLater(log.DebugLevel, log.Fields{"cluster": removed[i].ClusterName, "brokerAddr": removed[i].BrokerAddr,
			"brokerName": removed[i].BrokerName}, "live broker removed")
	}
	return removed
}

// memberOf finds the group and id of a live entry's address: first the group
// it registered under, then any group of the same cluster. As in Java, a
// group whose cluster differs (a broker name shared by two clusters, quirk
// Q15) does not match, and then only the live entry goes.
func memberOf(s *snapshot, entry *liveBroker) (brokerName string, brokerID int64, ok bool) {
	if group, found := s.groups.get(entry.brokerName); found {
		if id, found := idOf(group, entry.key); found {
			return entry.brokerName, id, true
		}
	}
	for name, group := range s.groups.all() {
		if id, found := idOf(group, entry.key); found {
			return name, id, true
		}
	}
	if group, found := s.groups.get(entry.brokerName); found && group.data.Cluster == entry.key.cluster &&
		len(group.data.BrokerAddrs) == 0 {
		// The group it registered under has no member left: a refused
		// registration (Q9) took this address's old id out. Java keeps
		// such a group, and its topics, for good; it goes with the broker.
		return entry.brokerName, 0, true
	}
	return "", 0, false
}

// idOf returns the id of key's address in group when the group belongs to
// key's cluster.
func idOf(group *brokerGroup, key brokerAddrInfo) (int64, bool) {
	if group.data.Cluster != key.cluster {
		return 0, false
	}
	for id, addr := range group.data.BrokerAddrs {
		if addr == key.addr {
			return id, true
		}
	}
	return 0, false
}

func compareAddrInfo(a, b brokerAddrInfo) int {
	if c := strings.Compare(a.cluster, b.cluster); c != 0 {
		return c
	}
	return strings.Compare(a.addr, b.addr)
}
