package route

import "testing"

func TestPrimeSlaveWithActingMasterRegistersReadOnly(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultSlave(), "T")
	if writable(mustRoute(t, m, "T").QueueDatas[0]) {
		t.Fatal("prime slave with acting master registered writable queues")
	}
	m2 := NewManager(Config{})
	registerNormal(t, m2, defaultSlave().withActing(false), "T")
	if !writable(mustRoute(t, m2, "T").QueueDatas[0]) {
		t.Fatal("prime slave without acting master lost the write perm")
	}
}

func TestNonPrimeSlaveTopicsAreIgnored(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultSlave(), "T", "SlaveOnly")
	if routeOf(m, "SlaveOnly") != nil {
		t.Fatal("a slave behind a master added a topic")
	}
}

func TestTopicNameFieldIsTheRouteKey(t *testing.T) {
	m := NewManager(Config{})
	req := defaultMaster().request(withBaseTopic(16, "T")...)
	config := topicConfig("RealName", 4, 6)
	req.Body.TopicConfigSerializeWrapper.TopicConfigTable["MapKey"] = config
	mustRegister(t, m, req)
	if routeOf(m, "RealName") == nil || routeOf(m, "MapKey") != nil {
		t.Fatal("route not keyed by topicName")
	}
}
