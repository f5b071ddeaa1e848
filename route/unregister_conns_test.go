package route

import (
	"fmt"
	"testing"
)

func TestConnectionsClosedRemovesTheirBrokersInOneWriteAndIsFenced(t *testing.T) {
	m := NewManager(Config{})
	var brokers []brokerInfo
	for i := range 4 {
		b := defaultMaster()
		b.name, b.addr, b.conn = fmt.Sprintf("broker-%d", i), fmt.Sprintf("127.0.0.1:%d", 10911+i), ConnID(10+i)
		registerNormal(t, m, b, "Shared")
		brokers = append(brokers, b)
	}
	moved := brokers[1]
	moved.conn = 99 // registered again over a new connection before its old one's close
	registerNormal(t, m, moved, "Shared")
	before := m.current.Load()
	removed := m.ConnectionsClosed([]ConnID{10, 11, 12, 12, 500})
	if len(removed) != 2 || removed[0].BrokerName != "broker-0" || removed[1].BrokerName != "broker-2" {
		t.Fatalf("removed %+v, want broker-0 and broker-2", removed)
	}
	if m.current.Load() == before {
		t.Fatal("nothing published")
	}
	route := mustRoute(t, m, "Shared")
	var names []string
	for _, qd := range route.QueueDatas {
		names = append(names, qd.BrokerName)
	}
	if fmt.Sprint(names) != "[broker-1 broker-3]" {
		t.Fatalf("queue datas left: %v", names)
	}
	if got := m.ConnectionsClosed([]ConnID{10, 11}); got != nil {
		t.Fatalf("closing gone connections again removed %+v", got)
	}
	if got := m.ConnectionsClosed(nil); got != nil {
		t.Fatalf("no connections removed %+v", got)
	}
}
