package route

import (
	"bytes"
	"testing"
)

// RouteJSON assembles cached fragments; it must write exactly what
// EncodeTopicRouteData writes for PickupTopicRouteData.
func TestRouteJSONEqualsEncodedPickup(t *testing.T) {
	static := TopicQueueMappingInfo{Topic: "S", Scope: DefaultMappingScope, Bname: "Default_Broker", TotalQueues: 2,
		Epoch: 1, CurrIDMap: map[int32]int32{0: 0, 1: 1}}
	scenarios := []struct {
		name  string
		cfg   Config
		setup func(t *testing.T, m *Manager)
	}{
		{"master and slave", Config{}, func(t *testing.T, m *Manager) {
			registerNormal(t, m, defaultMaster(), "T")
			registerNormal(t, m, defaultSlave(), "T")
		}},
		{"two groups, zone, unicode", Config{}, func(t *testing.T, m *Manager) {
			b := defaultMaster()
			b.zone = "zoné/1"
			registerNormal(t, m, b, "T")
			registerNormal(t, m, defaultMaster().withName("Broker_é").withAddr("10.0.0.2:1"), "T")
		}},
		{"acting master rewrite", Config{SupportActingMaster: true}, func(t *testing.T, m *Manager) {
			registerNormal(t, m, defaultSlave(), "T")
		}},
		{"filter servers", Config{}, func(t *testing.T, m *Manager) {
			req := defaultMaster().request(withBaseTopic(16, "T")...)
			req.Body.FilterServerList = []string{"10.0.0.9:30000"}
			mustRegister(t, m, req)
		}},
		{"static mapping", Config{}, func(t *testing.T, m *Manager) {
			req := defaultMaster().request(withBaseTopic(16, "T")...)
			req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{"T": static}
			mustRegister(t, m, req)
		}},
		{"queue data without group", Config{}, func(t *testing.T, m *Manager) {
			registerNormal(t, m, defaultMaster(), "T")
			other := defaultMaster().withName("Gone").withAddr("10.0.0.3:1")
			registerNormal(t, m, other, "U")
			m.RegisterTopic("T", []QueueData{{BrokerName: "Gone", Perm: 6, ReadQueueNums: 1, WriteQueueNums: 1}})
			m.UnregisterBrokers([]UnregisterRequest{{ClusterName: other.cluster, BrokerAddr: "nowhere",
				BrokerName: "Gone", Generation: UnfencedGeneration}})
			m.mu.Lock() // drop the group only, as a Java race could leave it
			tx := m.begin()
			tx.setGroup("Gone", nil)
			tx.commit()
			m.mu.Unlock()
		}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			m := NewManager(sc.cfg)
			sc.setup(t, m)
			route := mustRoute(t, m, "T")
			for _, standard := range []bool{false, true} {
				for _, order := range []string{"", "Default_Broker:8"} {
					withOrder := *route
					withOrder.OrderTopicConf = order
					want := EncodeTopicRouteData(nil, &withOrder, standard)
					got, ok := m.RouteJSON([]byte("prefix"), "T", RouteQuery{Standard: standard, OrderTopicConf: order})
					if !ok || !bytes.Equal(got, append([]byte("prefix"), want...)) {
						t.Fatalf("standard=%v order=%q:\n got %s\nwant prefix%s", standard, order, got, want)
					}
				}
			}
		})
	}
}

func (b brokerInfo) withAddr(addr string) brokerInfo { b.addr = addr; return b }

func (b brokerInfo) withConn(conn ConnID) brokerInfo { b.conn = conn; return b }

func TestRouteJSONMissingTopic(t *testing.T) {
	m := NewManager(Config{})
	if got, ok := m.RouteJSON([]byte("x"), "none", RouteQuery{}); ok || string(got) != "x" {
		t.Fatalf("got %q, %v", got, ok)
	}
}

// A change of a group re-encodes the routes that name it.
func TestRouteJSONFollowsGroupChanges(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	before, _ := m.RouteJSON(nil, "T", RouteQuery{})
	registerNormal(t, m, defaultSlave(), "T")
	after, _ := m.RouteJSON(nil, "T", RouteQuery{})
	if bytes.Equal(before, after) || !bytes.Contains(after, []byte(defaultSlave().addr)) {
		t.Fatalf("route did not follow the new slave:\n%s", after)
	}
	pick := mustRoute(t, m, "T")
	if len(pick.BrokerDatas[0].BrokerAddrs) != 2 {
		t.Fatalf("picked route is stale: %+v", pick.BrokerDatas)
	}
}

func TestRouteJSONAllocatesNothingWhenCached(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultSlave(), "T")
	buf := make([]byte, 0, 4096)
	m.RouteJSON(buf, "T", RouteQuery{Standard: true})
	allocs := testing.AllocsPerRun(100, func() { m.RouteJSON(buf[:0], "T", RouteQuery{Standard: true}) })
	if allocs != 0 {
		t.Fatalf("cached route query allocates %v times", allocs)
	}
}

// RouteJSON's cached brokers part follows every change a route reads besides
// its topic's entry: after each change the answer equals the pickup's.
func TestRouteJSONCacheFollowsWhatTheRouteReads(t *testing.T) {
	static := TopicQueueMappingInfo{Topic: "T", Scope: DefaultMappingScope, Bname: "Default_Broker", TotalQueues: 2,
		Epoch: 1, CurrIDMap: map[int32]int32{0: 0, 1: 1}}
	changes := []struct {
		name   string
		change func(t *testing.T, m *Manager)
	}{
		{"a slave joins the group", func(t *testing.T, m *Manager) { registerNormal(t, m, defaultSlave(), "T") }},
		{"the master moves", func(t *testing.T, m *Manager) {
			m.UnregisterBrokers([]UnregisterRequest{{ClusterName: defaultMaster().cluster, BrokerAddr: defaultMaster().addr,
				BrokerName: defaultMaster().name, Generation: UnfencedGeneration}})
			registerNormal(t, m, defaultMaster().withAddr("10.0.0.7:10911").withConn(9), "T")
		}},
		{"a static mapping arrives", func(t *testing.T, m *Manager) {
			req := defaultMaster().request(withBaseTopic(16, "T")...)
			req.Body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{"T": static}
			req.Body.TopicConfigSerializeWrapper.DataVersion.Counter++
			mustRegister(t, m, req)
		}},
		{"filter servers arrive", func(t *testing.T, m *Manager) {
			req := defaultMaster().request(withBaseTopic(16, "T")...)
			req.Body.FilterServerList = []string{"10.0.0.9:30000"}
			mustRegister(t, m, req)
		}},
		{"acting master turned on", func(_ *testing.T, m *Manager) {
			m.SetConfig(Config{SupportActingMaster: true}) // group Other has no master: its slave acts
		}},
	}
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			m := NewManager(Config{})
			registerNormal(t, m, defaultMaster(), "T")
			registerNormal(t, m, defaultSlave().withName("Other").withAddr("10.0.0.8:10911").withConn(8), "T")
			for _, standard := range []bool{false, true} {
				m.RouteJSON(nil, "T", RouteQuery{Standard: standard}) // the cache is filled
			}
			c.change(t, m)
			route := mustRoute(t, m, "T")
			for _, standard := range []bool{false, true} {
				want := EncodeTopicRouteData(nil, route, standard)
				if got, ok := m.RouteJSON(nil, "T", RouteQuery{Standard: standard}); !ok || !bytes.Equal(got, want) {
					t.Fatalf("standard=%v:\n got %s\nwant %s", standard, got, want)
				}
			}
		})
	}
}
