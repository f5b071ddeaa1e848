package namesrv

import (
	"maps"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestEveryRequiredFieldIsRequired walks the request headers of protocol.md
// 2.0 (and Java's @CFNotNull, which adds haServerAddr to REGISTER_BROKER):
// a request without one of its required fields is answered code 1 with a
// remark naming it (PUT_KV_CONFIG keeps Java's wording), and the server goes
// on serving.
func TestEveryRequiredFieldIsRequired(t *testing.T) {
	broker := nstest.BrokerAMaster
	identity := broker.Identity()
	cases := []struct {
		code     int32
		ext      map[string]string
		body     []byte
		required []string
	}{
		{remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": "v"}, nil, []string{"namespace", "key", "value"}},
		{remoting.GET_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k"}, nil, []string{"namespace", "key"}},
		{remoting.DELETE_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k"}, nil, []string{"namespace", "key"}},
		{remoting.REGISTER_BROKER, broker.RegisterRequest().ExtFields, broker.Body(),
			[]string{"brokerName", "brokerAddr", "clusterName", "haServerAddr", "brokerId"}},
		{remoting.UNREGISTER_BROKER, identity, nil, []string{"brokerName", "brokerAddr", "clusterName", "brokerId"}},
		{remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T"}, nil, []string{"topic"}},
		{remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "b"}, nil, []string{"brokerName"}},
		{remoting.ADD_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "b"}, nil, []string{"brokerName"}},
		{remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": "T"}, nil, []string{"topic"}},
		{remoting.REGISTER_TOPIC_IN_NAMESRV, map[string]string{"topic": "T"}, nil, []string{"topic"}},
		{remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": "ns"}, nil, []string{"namespace"}},
		{remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": "c"}, nil, []string{"cluster"}},
		{remoting.QUERY_DATA_VERSION, identity, nil, []string{"brokerName", "brokerAddr", "clusterName", "brokerId"}},
		{remoting.GET_BROKER_MEMBER_GROUP, map[string]string{"clusterName": "c", "brokerName": "b"}, nil, []string{"clusterName", "brokerName"}},
		{remoting.BROKER_HEARTBEAT, map[string]string{"clusterName": "c", "brokerAddr": "a:1", "brokerName": "b"}, nil,
			[]string{"clusterName", "brokerAddr", "brokerName"}},
	}
	s := startServer(t, nil)
	for _, tc := range cases {
		for _, field := range tc.required {
			ext := maps.Clone(tc.ext)
			delete(ext, field)
			resp := s.call(t, tc.code, ext, tc.body)
			want := "<" + field + ">"
			if tc.code == remoting.PUT_KV_CONFIG {
				want = map[string]string{"namespace": "namespace or key is null", "key": "namespace or key is null", "value": "value is null"}[field]
			}
			if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, want) {
				t.Errorf("%s without %s: code %d remark %q, want code 1 naming it", remoting.RequestCodeName(tc.code), field, resp.Code, resp.Remark)
			}
		}
	}
	nstest.MustCode(t, s.call(t, remoting.GET_BROKER_CLUSTER_INFO, nil, nil), remoting.SUCCESS)
}
