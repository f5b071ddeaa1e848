package route

import "testing"

func TestPickedRouteIsReusedUntilSomethingItDependsOnChanges(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	first := mustRoute(t, m, "T")
	if mustRoute(t, m, "T") != first {
		t.Fatal("unchanged route rebuilt")
	}
	registerNormal(t, m, defaultMaster().withName("Other").withAddr("o:1"), "U") // unrelated
	if mustRoute(t, m, "T") != first {
		t.Fatal("an unrelated registration invalidated the route")
	}
	registerNormal(t, m, defaultSlave(), "T")
	if second := mustRoute(t, m, "T"); second == first || len(second.BrokerDatas[0].BrokerAddrs) != 2 {
		t.Fatal("route kept after its group changed")
	}
}

func TestActingMasterRewriteLeavesTheTableAlone(t *testing.T) {
	m := NewManager(Config{SupportActingMaster: true})
	registerNormal(t, m, defaultSlave(), "T")
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs; got[MasterID] != defaultSlave().addr || len(got) != 1 {
		t.Fatalf("route addrs = %v", got)
	}
	if got := m.BrokerMemberGroup("", defaultSlave().name); got[1] != defaultSlave().addr || len(got) != 1 {
		t.Fatalf("table changed by the rewrite: %v", got)
	}
	sync := SyncBrokerMemberGroupPrefix + "x"
	registerNormal(t, m, defaultSlave(), "T", sync)
	if _, ok := mustRoute(t, m, sync).BrokerDatas[0].BrokerAddrs[MasterID]; ok {
		t.Fatal("member-sync topic was rewritten")
	}
}
