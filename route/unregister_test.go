package route

import (
	"slices"
	"testing"
)

// The stale-unregister fence (apache/rocketmq#11043): an UNREGISTER captured
// before the broker registered again must not remove it.
func TestStaleUnregisterIsFencedByGeneration(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	stale := b.unregisterRequest()
	stale.Generation = m.Generation(b.cluster, b.addr) // captured on arrival
	// the broker restarts on a new connection before the queue is applied
	b.conn = 7
	registerNormal(t, m, b, "T")
	m.UnregisterBrokers([]UnregisterRequest{stale})
	if routeOf(m, "T") == nil {
		t.Fatal("stale unregister removed a broker that registered again")
	}
	fresh := b.unregisterRequest()
	fresh.Generation = m.Generation(b.cluster, b.addr)
	m.UnregisterBrokers([]UnregisterRequest{fresh})
	if routeOf(m, "T") != nil {
		t.Fatal("current unregister did not remove the broker")
	}
}

func TestUnregisterCapturedWithoutLiveEntryIsFencedByLaterRegistration(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	req := b.unregisterRequest()
	req.Generation = m.Generation(b.cluster, b.addr) // 0: not live yet
	registerNormal(t, m, b, "T")
	m.UnregisterBrokers([]UnregisterRequest{req})
	if routeOf(m, "T") == nil {
		t.Fatal("an unregister older than the registration removed it")
	}
}

func TestUnregisterSkipsRequestsWithMissingFieldsButAppliesTheRest(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	m.UnregisterBrokers([]UnregisterRequest{{ClusterName: b.cluster, Generation: UnfencedGeneration}, b.unregisterRequest()})
	if routeOf(m, "T") != nil {
		t.Fatal("the valid request of the batch was not applied (quirk Q17 fixed)")
	}
}

func TestUnregisterNotifiesRemainingMembersWhenActingMasterEnabled(t *testing.T) {
	m := NewManager(Config{NotifyMinBrokerIdChanged: true})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultSlave(), "T")
	changes := m.UnregisterBrokers([]UnregisterRequest{defaultMaster().unregisterRequest()})
	want := MinBrokerIDChange{BrokerName: "Default_Broker", Recipients: []string{defaultSlave().addr},
		MinBrokerID: 1, MinBrokerAddr: defaultSlave().addr, OfflineBrokerAddr: defaultMaster().addr}
	if len(changes) != 1 || !sameChange(changes[0], want) {
		t.Fatalf("changes = %+v, want %+v", changes, want)
	}
	m2 := NewManager(Config{NotifyMinBrokerIdChanged: true})
	registerNormal(t, m2, defaultMaster().withActing(false), "T")
	registerNormal(t, m2, defaultSlave().withActing(false), "T")
	if changes := m2.UnregisterBrokers([]UnregisterRequest{defaultMaster().unregisterRequest()}); changes != nil {
		t.Fatalf("acting master disabled, yet changes = %+v", changes)
	}
}

func sameChange(a, b MinBrokerIDChange) bool {
	return a.BrokerName == b.BrokerName && slices.Equal(a.Recipients, b.Recipients) && a.MinBrokerID == b.MinBrokerID &&
		a.MinBrokerAddr == b.MinBrokerAddr && a.OfflineBrokerAddr == b.OfflineBrokerAddr && a.HABrokerAddr == b.HABrokerAddr
}
