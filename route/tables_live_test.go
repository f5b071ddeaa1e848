package route

import "testing"

func TestLiveIndexesFollowReplacementAndRemoval(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	first, _ := m.current.Load().live.get(brokerAddrInfo{cluster: b.cluster, addr: b.addr})
	b.conn = 9
	registerNormal(t, m, b, "T")
	if !first.retired || len(m.connBrokers[defaultMaster().conn]) != 0 || len(m.connBrokers[9]) != 1 {
		t.Fatalf("after replacement: retired=%v index=%v", first.retired, m.connBrokers)
	}
	m.ConnectionClosed(9)
	if len(m.connBrokers) != 0 {
		t.Fatalf("connection index left: %v", m.connBrokers)
	}
}
