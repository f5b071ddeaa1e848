package agent

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestRequestHeaders(t *testing.T) {
	id := Identity{ClusterName: "C", BrokerName: "b", BrokerID: 2, BrokerAddr: "1.2.3.4:5"}
	unreg := unregisterBrokerRequest(id)
	query := queryDataVersionRequest(id, route.DataVersion{Counter: 1, Timestamp: 2})
	for _, req := range []*remoting.Command{unreg, query} {
		for k, v := range map[string]string{"clusterName": "C", "brokerName": "b", "brokerId": "2", "brokerAddr": "1.2.3.4:5"} {
			if req.ExtFields[k] != v {
				t.Errorf("code %d: %s = %q, want %q", req.Code, k, req.ExtFields[k], v)
			}
		}
	}
	if v, err := route.DecodeDataVersion(query.Body); err != nil || v.Counter != 1 || v.Timestamp != 2 {
		t.Errorf("QUERY_DATA_VERSION body %s decodes to %+v, %v", query.Body, v, err)
	}
	hb := brokerHeartbeatRequest(id)
	if hb.Code != remoting.BROKER_HEARTBEAT || hb.ExtFields["brokerAddr"] != "1.2.3.4:5" || len(hb.ExtFields) != 3 {
		t.Errorf("heartbeat = %+v", hb)
	}
}
