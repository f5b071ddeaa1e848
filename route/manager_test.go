package route

import (
	"testing"
	"time"

	log "github.com/sirupsen/logrus"
)

// The route tests register thousands of brokers; their info and warning
// logs would drown the test output.
func init() { log.SetLevel(log.ErrorLevel) }

// testNow is the fixed clock of the route tests: nothing here sleeps.
var testNow = time.UnixMilli(1_700_000_000_000)

// brokerInfo describes one broker for the tests, like the Java tests'
// BrokerBasicInfo.
type brokerInfo struct {
	cluster, name, addr, ha string
	id                      int64
	acting                  *bool
	dv                      DataVersion
	conn                    ConnID
	timeoutMillis           *int64
	zone                    string
}

func boolPtr(b bool) *bool    { return &b }
func int64Ptr(v int64) *int64 { return &v }

// topicConfig is a topic with equal read and write queue counts.
func topicConfig(name string, queues, perm int32) TopicConfig {
	return TopicConfig{TopicName: name, ReadQueueNums: queues, WriteQueueNums: queues, Perm: perm,
		TopicFilterType: TopicFilterSingleTag}
}

// bodyOf is a RegisterBrokerBody with the given topics.
func bodyOf(dv DataVersion, configs ...TopicConfig) *RegisterBrokerBody {
	table := make(map[string]TopicConfig, len(configs))
	for _, c := range configs {
		table[c.TopicName] = c
	}
	return &RegisterBrokerBody{
		TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{DataVersion: dv, TopicConfigTable: table},
		FilterServerList:            []string{},
	}
}

// request builds the registration of b with the given topics.
func (b brokerInfo) request(configs ...TopicConfig) *RegisterBrokerRequest {
	return &RegisterBrokerRequest{
		ClusterName: b.cluster, BrokerAddr: b.addr, BrokerName: b.name, HAServerAddr: b.ha,
		ZoneName: b.zone, BrokerID: b.id, HeartbeatTimeoutMillis: b.timeoutMillis,
		EnableActingMaster: b.acting, Body: bodyOf(b.dv, configs...), FilterServersGiven: true, Conn: b.conn,
	}
}

func (b brokerInfo) unregisterRequest() UnregisterRequest {
	return UnregisterRequest{ClusterName: b.cluster, BrokerAddr: b.addr, BrokerName: b.name, BrokerID: b.id,
		Generation: UnfencedGeneration}
}

func mustRegister(t testing.TB, m *Manager, req *RegisterBrokerRequest) RegisterBrokerResult {
	t.Helper()
	result, _, err := m.RegisterBroker(req, testNow)
	if err != nil {
		t.Fatalf("register %s: %v", req.BrokerAddr, err)
	}
	return result
}

// routeOf returns the route of topic, nil when there is none.
func routeOf(m *Manager, topic string) *TopicRouteData {
	route, ok := m.PickupTopicRouteData(topic)
	if !ok {
		return nil
	}
	return route
}

func mustRoute(t testing.TB, m *Manager, topic string) *TopicRouteData {
	t.Helper()
	route := routeOf(m, topic)
	if route == nil {
		t.Fatalf("no route for %s", topic)
	}
	return route
}

func TestNewManagerDefaultsHeartbeatTimeout(t *testing.T) {
	m := NewManager(Config{})
	if got := m.Config().DefaultHeartbeatTimeout; got != DefaultHeartbeatTimeout {
		t.Fatalf("default timeout = %v, want %v", got, DefaultHeartbeatTimeout)
	}
}

func TestSetConfigRebuildsRoutes(t *testing.T) {
	m := NewManager(Config{})
	slave := brokerInfo{cluster: "c", name: "b", addr: "a:1", id: 1, acting: boolPtr(true), dv: DataVersion{Counter: 1}}
	mustRegister(t, m, slave.request(topicConfig("T", 4, 6), topicConfig("U", 4, 6)))
	if _, ok := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; ok {
		t.Fatal("acting master shown while supportActingMaster is off")
	}
	m.SetConfig(Config{SupportActingMaster: true})
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; got != "a:1" {
		t.Fatalf("after SetConfig id 0 = %q, want the acting slave a:1", got)
	}
}
