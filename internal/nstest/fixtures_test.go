package nstest

import "testing"

// TestStandardBrokersShape checks what tests rely on: broker-a is a master
// and a slave of one group, broker-b another group, every broker has its own
// address and serves SharedTopic.
func TestStandardBrokersShape(t *testing.T) {
	if BrokerAMaster.Name != BrokerASlave.Name || BrokerAMaster.ID != 0 || BrokerASlave.ID == 0 {
		t.Fatalf("broker-a master %+v slave %+v, want one group with ids 0 and > 0", BrokerAMaster, BrokerASlave)
	}
	if BrokerB.Name == BrokerAMaster.Name || BrokerB.ID != 0 {
		t.Fatalf("broker-b %+v, want a master of another group", BrokerB)
	}
	addrs := map[string]bool{}
	for _, b := range []Broker{BrokerAMaster, BrokerASlave, BrokerB} {
		for _, addr := range []string{b.Addr, b.HAAddr} {
			if addrs[addr] {
				t.Fatalf("address %s used twice", addr)
			}
			addrs[addr] = true
		}
		if b.Topics[SharedTopic] == 0 || b.Cluster != BrokerAMaster.Cluster {
			t.Fatalf("%s at %s: topics %v cluster %s, want %s served in cluster %s",
				b.Name, b.Addr, b.Topics, b.Cluster, SharedTopic, BrokerAMaster.Cluster)
		}
	}
}
