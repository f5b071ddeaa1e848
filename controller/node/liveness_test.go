package node

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

func heartbeat(name string, id int64, timeout int64) *wire.BrokerHeartbeatRequest {
	return &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: name, BrokerAddr: "a", BrokerID: &id, HeartbeatTimeoutMills: &timeout}
}

func TestLiveTableTracksConnectionsAndItsBound(t *testing.T) {
	table := newLiveTable(2)
	if ok, full := table.observe(heartbeat("s", 1, 60000), 7); !ok || full {
		t.Fatalf("first heartbeat: ok %v full %v", ok, full)
	}
	table.observe(heartbeat("s", 2, 60000), 7)
	if ok, full := table.observe(heartbeat("s", 3, 60000), 8); ok || !full {
		t.Fatalf("a third member past the bound of 2: ok %v full %v", ok, full)
	}
	if ok, _ := table.observe(heartbeat("s", 1, 60000), 9); !ok {
		t.Fatal("a known member's heartbeat refused at the bound")
	}
	if ok, full := table.observe(&wire.BrokerHeartbeatRequest{BrokerName: "s"}, 7); ok || full {
		t.Fatal("a heartbeat without brokerId stored")
	}
	if !table.Alive("c", "s", 1) || !table.Alive("c", "s", 2) || table.Alive("c", "s", 3) {
		t.Fatal("liveness after the heartbeats")
	}
	// Member 1 moved to connection 9: closing 7 removes only member 2.
	gone := table.closed(7)
	if len(gone) != 1 || gone[0].Key != (controller.BrokerKey{ClusterName: "c", BrokerName: "s", BrokerID: 2}) {
		t.Fatalf("closing connection 7 removed %v", gone)
	}
	if !table.Alive("c", "s", 1) || table.Alive("c", "s", 2) || table.size() != 1 {
		t.Fatal("liveness after the close")
	}
	if gone := table.closed(9); len(gone) != 1 || table.size() != 0 {
		t.Fatalf("closing connection 9 removed %v, %d left", gone, table.size())
	}
}

func TestLiveTableExpiresSilentMembers(t *testing.T) {
	table := newLiveTable(10)
	table.observe(heartbeat("s", 1, -10000), 1) // Java's tests' way of a dead broker
	table.observe(heartbeat("s", 2, 60000), 1)
	gone := table.expire()
	if len(gone) != 1 || gone[0].Key.BrokerID != 1 || table.size() != 1 {
		t.Fatalf("expired %v, %d left", gone, table.size())
	}
	if gone := table.closed(1); len(gone) != 1 || gone[0].Key.BrokerID != 2 {
		t.Fatalf("the expired member was still tied to its connection: %v", gone)
	}
}
