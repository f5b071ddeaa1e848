package route

import "slices"

// MinBrokerIDChange is one NOTIFY_MIN_BROKER_ID_CHANGE (905) message to send
// (protocol.md 2.24, 4.11). The route tables only compute it; the daemon
// sends it one-way to every recipient after the write finished, so no send
// ever happens under the writer lock (quirk Q26 fixed).
type MinBrokerIDChange struct {
	BrokerName string   // the group whose smallest id changed (not sent: Java leaves it unset)
	Recipients []string // broker addresses to notify
	// Header fields; an empty string stands for an absent field.
	MinBrokerID       int64
	MinBrokerAddr     string
	OfflineBrokerAddr string // set for unregistrations
	HABrokerAddr      string // set for registrations: the registering broker's HA address
}

// RemovedBroker is a live broker that a connection close or the expiry scan
// removed; the daemon closes Conn (expiry) and may log it.
type RemovedBroker struct {
	ClusterName string
	BrokerAddr  string
	BrokerName  string // "" when no group held the address any more
	BrokerID    int64
	Conn        ConnID
	// MinBrokerIDChange is the notification this removal caused, if any.
	MinBrokerIDChange *MinBrokerIDChange
}

// newMinBrokerIDChange builds the message for a group whose addresses are
// addrs (not empty). Java's chooseBrokerAddrsToNotify: after an
// unregistration, or when the group has one member, everyone is told;
// after a registration, everyone but the new smallest id.
func newMinBrokerIDChange(brokerName string, addrs map[int64]string, offlineAddr, haAddr string) MinBrokerIDChange {
	ids := make([]int64, 0, len(addrs))
	for id := range addrs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	minID := ids[0]
	change := MinBrokerIDChange{
		BrokerName:        brokerName,
		MinBrokerID:       minID,
		MinBrokerAddr:     addrs[minID],
		OfflineBrokerAddr: offlineAddr,
		HABrokerAddr:      haAddr,
	}
	notifyAll := offlineAddr != "" || len(addrs) == 1
	for _, id := range ids {
		if notifyAll || id != minID {
			change.Recipients = append(change.Recipients, addrs[id])
		}
	}
	return change
}
