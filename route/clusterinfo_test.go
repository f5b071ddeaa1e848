package route

import (
	"reflect"
	"testing"
)

func TestEncodeClusterInfoSpecExample(t *testing.T) {
	c := &ClusterInfo{
		BrokerAddrTable: map[string]BrokerData{
			"broker-b": {Cluster: "DefaultCluster", BrokerName: "broker-b", EnableActingMaster: true, ZoneName: "zone1",
				BrokerAddrs: map[int64]string{0: "192.168.0.4:10911"}},
			"broker-a": {Cluster: "DefaultCluster", BrokerName: "broker-a",
				BrokerAddrs: map[int64]string{0: "192.168.0.1:10911", 1: "192.168.0.2:10911"}},
		},
		ClusterAddrTable: map[string][]string{"DefaultCluster": {"broker-b", "broker-a"}},
	}
	// The spec's example in sorted map order (Java writes hash order).
	want := `{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"192.168.0.1:10911",1:"192.168.0.2:10911"},` +
		`"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false},` +
		`"broker-b":{"brokerAddrs":{0:"192.168.0.4:10911"},"brokerName":"broker-b","cluster":"DefaultCluster",` +
		`"enableActingMaster":true,"zoneName":"zone1"}},"clusterAddrTable":{"DefaultCluster":["broker-b","broker-a"]}}`
	if got := string(EncodeClusterInfo(nil, c)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := string(EncodeClusterInfo(nil, &ClusterInfo{})); got != `{"brokerAddrTable":{},"clusterAddrTable":{}}` {
		t.Fatalf("empty: got %s", got)
	}
}

// The recorded cluster infos are in Java hash order: compare with the maps
// sorted (canonicalJSON); plain encoding, raw UTF-8 zone names and the empty
// brokerAddrs of 089 must come out unchanged.
func TestClusterInfoFixtures(t *testing.T) {
	for _, fixture := range []string{"025", "084", "089"} {
		t.Run(fixture, func(t *testing.T) {
			body := responseBody(t, fixture)
			c, err := DecodeClusterInfo(body)
			if err != nil {
				t.Fatal(err)
			}
			got := EncodeClusterInfo(nil, c)
			if canonicalJSON(t, got) != canonicalJSON(t, body) {
				t.Fatalf("got\n%s\nrecorded\n%s", got, body)
			}
		})
	}
	c, err := DecodeClusterInfo(responseBody(t, "089"))
	if err != nil {
		t.Fatal(err)
	}
	if e := c.BrokerAddrTable["broker-e"]; e.BrokerAddrs == nil || len(e.BrokerAddrs) != 0 || e.Cluster != "DefaultCluster" {
		t.Fatalf("broker-e: %+v", e)
	}
	if !reflect.DeepEqual(c.ClusterAddrTable["DefaultCluster"], []string{"broker-e", "broker-a"}) {
		t.Fatalf("cluster table %v", c.ClusterAddrTable)
	}
}
