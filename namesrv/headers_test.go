package namesrv

import (
	"maps"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// without returns a copy of ext without key.
func without(ext map[string]string, key string) map[string]string {
	out := maps.Clone(ext)
	delete(out, key)
	return out
}

// TestMissingRequiredField: Java does not enforce its required header
// fields and answers all sorts of things (protocol.md 2.23); we answer code 1
// with a remark naming the field (quirk Q4, fixed) and change nothing.
func TestMissingRequiredField(t *testing.T) {
	s := startServer(t, nil)
	// With the worker stopped, a request that got queued stays visible.
	s.ns.unregister.stop()
	identity := nstest.BrokerAMaster.Identity()
	heartbeat := map[string]string{"clusterName": "c", "brokerAddr": "a", "brokerName": "b"}
	cases := []struct {
		name  string
		code  int32
		ext   map[string]string
		field string
	}{
		{"GET_ROUTEINFO_BY_TOPIC", remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{}, "topic"},
		{"GET_KV_CONFIG", remoting.GET_KV_CONFIG, map[string]string{"namespace": "ns"}, "key"},
		{"DELETE_KV_CONFIG", remoting.DELETE_KV_CONFIG, map[string]string{"key": "k"}, "namespace"},
		{"GET_KVLIST_BY_NAMESPACE", remoting.GET_KVLIST_BY_NAMESPACE, nil, "namespace"},
		{"UNREGISTER_BROKER", remoting.UNREGISTER_BROKER, without(identity, "brokerId"), "brokerId"},
		{"UNREGISTER_BROKER without clusterName", remoting.UNREGISTER_BROKER, without(identity, "clusterName"), "clusterName"},
		{"QUERY_DATA_VERSION", remoting.QUERY_DATA_VERSION, without(identity, "brokerAddr"), "brokerAddr"},
		{"BROKER_HEARTBEAT", remoting.BROKER_HEARTBEAT, without(heartbeat, "brokerName"), "brokerName"},
		{"WIPE_WRITE_PERM_OF_BROKER", remoting.WIPE_WRITE_PERM_OF_BROKER, nil, "brokerName"},
		{"ADD_WRITE_PERM_OF_BROKER", remoting.ADD_WRITE_PERM_OF_BROKER, nil, "brokerName"},
		{"DELETE_TOPIC_IN_NAMESRV", remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"clusterName": "DefaultCluster"}, "topic"},
		{"REGISTER_TOPIC_IN_NAMESRV", remoting.REGISTER_TOPIC_IN_NAMESRV, nil, "topic"},
		{"GET_TOPICS_BY_CLUSTER", remoting.GET_TOPICS_BY_CLUSTER, nil, "cluster"},
		{"GET_BROKER_MEMBER_GROUP", remoting.GET_BROKER_MEMBER_GROUP, map[string]string{"clusterName": "c"}, "brokerName"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mustRefuse(t, s.call(t, tc.code, tc.ext, nil), "<"+tc.field+">")
		})
	}
	s.ns.unregister.mu.Lock()
	queued := len(s.ns.unregister.requests)
	s.ns.unregister.mu.Unlock()
	if queued != 0 {
		t.Fatalf("%d refused UNREGISTER_BROKER requests were queued", queued)
	}
}

// TestInvalidNumberInHeader: a field that does not parse is named too.
func TestInvalidNumberInHeader(t *testing.T) {
	s := startServer(t, nil)
	req := nstest.BrokerAMaster.RegisterRequest()
	req.ExtFields["brokerId"] = "zero"
	mustRefuse(t, nstest.Invoke(t, s.client, req), "<brokerId> has an invalid value")
}
