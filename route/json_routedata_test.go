package route

import (
	"reflect"
	"strings"
	"testing"
)

// specRoute is the route of the protocol.md 3.3 examples, built by hand.
func specRoute() *TopicRouteData {
	return &TopicRouteData{
		BrokerDatas: []BrokerData{
			{Cluster: "DefaultCluster", BrokerName: "broker-a",
				BrokerAddrs: map[int64]string{1: "192.168.0.2:10911", 0: "192.168.0.1:10911"}},
			{Cluster: "DefaultCluster", BrokerName: "broker-b", EnableActingMaster: true, ZoneName: "zone1",
				BrokerAddrs: map[int64]string{0: "192.168.0.4:10911"}},
		},
		QueueDatas: []QueueData{
			{BrokerName: "broker-a", Perm: 6, ReadQueueNums: 4, WriteQueueNums: 4},
			{BrokerName: "broker-b", Perm: 6, ReadQueueNums: 8, WriteQueueNums: 8},
		},
		FilterServerTable: map[string][]string{},
	}
}

func TestEncodeTopicRouteDataSpecExamples(t *testing.T) {
	tests := []struct {
		name     string
		standard bool
		want     string
	}{
		{"plain", false, `{"brokerDatas":[{"brokerAddrs":{0:"192.168.0.1:10911",1:"192.168.0.2:10911"},"brokerName":"broker-a",` +
			`"cluster":"DefaultCluster","enableActingMaster":false},{"brokerAddrs":{0:"192.168.0.4:10911"},` +
			`"brokerName":"broker-b","cluster":"DefaultCluster","enableActingMaster":true,"zoneName":"zone1"}],` +
			`"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,` +
			`"writeQueueNums":4},{"brokerName":"broker-b","perm":6,"readQueueNums":8,"topicSysFlag":0,"writeQueueNums":8}]}`},
		{"standard", true, `{"brokerDatas":[{"brokerAddrs":{"0":"192.168.0.1:10911","1":"192.168.0.2:10911"},"brokerName":"broker-a",` +
			`"cluster":"DefaultCluster","enableActingMaster":false},{"brokerAddrs":{"0":"192.168.0.4:10911"},` +
			`"brokerName":"broker-b","cluster":"DefaultCluster","enableActingMaster":true,"zoneName":"zone1"}],` +
			`"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,` +
			`"writeQueueNums":4},{"brokerName":"broker-b","perm":6,"readQueueNums":8,"topicSysFlag":0,"writeQueueNums":8}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EncodeTopicRouteData(nil, specRoute(), tt.standard)
			if string(got) != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEncodeTopicRouteDataOrderConfAndFilterServers(t *testing.T) {
	d := specRoute()
	d.OrderTopicConf = "broker-a:4;broker-b:8"
	d.FilterServerTable = map[string][]string{"192.168.0.1:10911": {"10.0.0.9:30000"}}
	got := string(EncodeTopicRouteData(nil, d, false))
	want := `"filterServerTable":{"192.168.0.1:10911":["10.0.0.9:30000"]},"orderTopicConf":"broker-a:4;broker-b:8","queueDatas":[`
	if !strings.Contains(got, want) {
		t.Fatalf("got %s, want it to contain %s", got, want)
	}
}

func TestEncodeTopicRouteDataNeverOmitsCollections(t *testing.T) {
	got := string(EncodeTopicRouteData(nil, &TopicRouteData{}, true))
	if want := `{"brokerDatas":[],"filterServerTable":{},"queueDatas":[]}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	withMapping := &TopicRouteData{TopicQueueMappingByBroker: map[string]TopicQueueMappingInfo{}}
	got = string(EncodeTopicRouteData(nil, withMapping, false))
	if want := `{"brokerDatas":[],"filterServerTable":{},"queueDatas":[],"topicQueueMappingByBroker":{}}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestEncodeTopicRouteDataAppendsToDst(t *testing.T) {
	prefix := []byte("head:")
	got := EncodeTopicRouteData(prefix, &TopicRouteData{}, false)
	if string(got[:5]) != "head:" || got[5] != '{' {
		t.Fatalf("got %q", got)
	}
}

// Fixtures whose route bodies are re-encoded from their decoded form: the
// arrays keep the recorded (hash) order because decoding keeps it, and every
// map in them is in ascending order, so the bytes must match exactly.
func TestTopicRouteDataFixturesRoundTripExactly(t *testing.T) {
	tests := []struct {
		fixture  string
		standard bool
	}{
		{"009", false}, {"010", true}, {"011", true}, {"012", false}, {"013", true},
		{"014", false}, {"019", true}, {"020", false},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			body := responseBody(t, tt.fixture)
			d, err := DecodeTopicRouteData(body)
			if err != nil {
				t.Fatal(err)
			}
			got := EncodeTopicRouteData(nil, d, tt.standard)
			if string(got) != string(body) {
				t.Fatalf("got\n%s\nwant\n%s", got, body)
			}
		})
	}
}

func TestDecodeTopicRouteDataFixtureValues(t *testing.T) {
	d, err := DecodeTopicRouteData(responseBody(t, "013"))
	if err != nil {
		t.Fatal(err)
	}
	want := &TopicRouteData{
		BrokerDatas: []BrokerData{{Cluster: "ClusterB", BrokerName: "broker-b", ZoneName: "华东/az-b",
			BrokerAddrs: map[int64]string{0: "127.0.0.1:10931"}}},
		QueueDatas:        []QueueData{{BrokerName: "broker-b", Perm: 6, ReadQueueNums: 2, WriteQueueNums: 2}},
		FilterServerTable: map[string][]string{"127.0.0.1:10931": {"127.0.0.1:30931"}},
		TopicQueueMappingByBroker: map[string]TopicQueueMappingInfo{"broker-b": {
			Topic: "TopicStatic", Scope: "__global__", Bname: "broker-b", TotalQueues: 2, Epoch: 1700000001000,
			CurrIDMap: map[int32]int32{0: 0, 1: 1}}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %+v\nwant %+v", d, want)
	}
	plain, err := DecodeTopicRouteData(responseBody(t, "012"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plain, want) {
		t.Fatalf("plain and standard bodies of the same route decode differently:\n%+v\n%+v", plain, want)
	}
}

func TestTopicRouteDataRoundTrip(t *testing.T) {
	d := specRoute()
	d.OrderTopicConf = "broker-a:4"
	d.BrokerDatas[0].ZoneName = "华东/az-b \"q\" \U0001F600"
	d.BrokerDatas[0].BrokerAddrs[1234] = "10.0.0.1:1"
	d.FilterServerTable = map[string][]string{"b": {"2", "1"}, "a": {}}
	d.TopicQueueMappingByBroker = map[string]TopicQueueMappingInfo{"broker-a": {
		Topic: "T", Scope: "s", Bname: "broker-a", TotalQueues: 3, Epoch: 1 << 60, Dirty: true,
		CurrIDMap: map[int32]int32{2: 7, 0: 5, -1: 3}}}
	for _, standard := range []bool{false, true} {
		got, err := DecodeTopicRouteData(EncodeTopicRouteData(nil, d, standard))
		if err != nil {
			t.Fatalf("standard=%v: %v", standard, err)
		}
		if !reflect.DeepEqual(got, d) {
			t.Fatalf("standard=%v: got %+v\nwant %+v", standard, got, d)
		}
	}
}

func TestDecodeTopicRouteDataLenience(t *testing.T) {
	body := `{ 'queueDatas' : [ {"brokerName":"b","perm":"6","unknown":{"x":[1,{2:3}]},"readQueueNums":null} ],` +
		` "extra":[true,false,null,-1.5e3], "brokerDatas":[{"brokerAddrs":{ 0 : "a", "1":"b"},"enableActingMaster":"true"}] }`
	d, err := DecodeTopicRouteData([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := &TopicRouteData{
		QueueDatas:  []QueueData{{BrokerName: "b", Perm: 6}},
		BrokerDatas: []BrokerData{{BrokerAddrs: map[int64]string{0: "a", 1: "b"}, EnableActingMaster: true}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %+v\nwant %+v", d, want)
	}
}

func TestDecodeTopicRouteDataErrors(t *testing.T) {
	for _, body := range []string{
		``, `[]`, `{"brokerDatas":[{"brokerAddrs":{x:"a"}}]}`, `{"queueDatas":[{"perm":99999999999}]}`,
		`{"queueDatas":[{"perm":1}]`, `{"brokerDatas":{}}`, `{} x`, `{"orderTopicConf":1}`,
	} {
		if _, err := DecodeTopicRouteData([]byte(body)); err == nil {
			t.Errorf("%q: no error", body)
		}
	}
}

func BenchmarkEncodeTopicRouteData(b *testing.B) {
	d := specRoute()
	for _, mode := range []struct {
		name     string
		standard bool
	}{{"plain", false}, {"standard", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 1024)
			for b.Loop() {
				buf = EncodeTopicRouteData(buf[:0], d, mode.standard)
			}
		})
	}
}
