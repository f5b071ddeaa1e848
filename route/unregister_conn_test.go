package route

import (
	"errors"
	"testing"
)

func TestConnectionClosedIsFencedByConnection(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	oldConn := b.conn
	b.conn = 42 // reconnected and registered again before the close event
	registerNormal(t, m, b, "T")
	if removed := m.ConnectionClosed(oldConn); removed != nil {
		t.Fatalf("old connection's close removed %+v", removed)
	}
	removed := m.ConnectionClosed(42)
	if len(removed) != 1 || removed[0].BrokerName != b.name || removed[0].BrokerID != 0 || removed[0].Conn != 42 {
		t.Fatalf("removed = %+v", removed)
	}
	if routeOf(m, "T") != nil {
		t.Fatal("route left")
	}
}

func TestConnectionClosedRemovesEveryBrokerOfTheConnection(t *testing.T) {
	m := NewManager(Config{})
	a := defaultMaster()
	b := defaultMaster()
	b.cluster = "Other_Cluster" // same address, second live entry, same connection
	registerNormal(t, m, a, "T")
	registerNormal(t, m, b, "T")
	if removed := m.ConnectionClosed(a.conn); len(removed) != 2 {
		t.Fatalf("removed = %+v, want both live entries", removed)
	}
	if _, stored := m.QueryDataVersion(b.cluster, b.addr, nil, testNow); stored != nil {
		t.Fatal("second live entry left")
	}
}

func TestConnectionClosedWithoutGroupStillDropsTheLiveEntry(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	// the group goes by an unregistration that names it under another address
	m.UnregisterBrokers([]UnregisterRequest{{ClusterName: "x", BrokerAddr: b.addr, BrokerName: b.name,
		Generation: UnfencedGeneration}})
	removed := m.ConnectionClosed(b.conn)
	if len(removed) != 1 || removed[0].BrokerName != "" {
		t.Fatalf("removed = %+v, want the live entry without group", removed)
	}
	if m.Generation(b.cluster, b.addr) != 0 {
		t.Fatal("live entry left")
	}
}

// A refused registration (Q9) that took the broker's old id out leaves its
// group with no member; when that broker's connection closes, the empty
// group and its topics go with it.
func TestCloseRemovesTheEmptyGroupARefusedRegistrationLeft(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T", "U")
	moved := b
	moved.id = 2
	if _, _, err := m.RegisterBroker(moved.request(topicConfig("T", 8, 6)), testNow); !errors.Is(err, ErrRegisterRefused) {
		t.Fatalf("a single-topic registration under a new id must be refused: %v", err)
	}
	if routeOf(m, "T") == nil {
		t.Fatal("until the broker goes, the trace stays (as in Java)")
	}
	m.ConnectionClosed(b.conn)
	if sizes := m.IndexSizes(); sizes.Topics != 0 || sizes.Groups != 0 || sizes.BrokerTopics != 0 || sizes.Live != 0 {
		t.Fatalf("the empty group and its topics must go with the broker: %+v", sizes)
	}
}
