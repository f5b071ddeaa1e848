package wire

import (
	"reflect"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// The golden strings are the shapes docs/controller.md §1.1 gives for Java's
// fastjson output: alphabetical keys, unquoted long map keys, nulls left out.
func TestBodiesEncodeAsFastjson(t *testing.T) {
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"sync state set", (&SyncStateSet{SyncStateSet: []int64{2, 1, 2}, SyncStateSetEpoch: 3}).Encode(),
			`{"syncStateSet":[1,2],"syncStateSetEpoch":3}`},
		{"empty sync state set", (&SyncStateSet{}).Encode(), `{"syncStateSet":[],"syncStateSetEpoch":0}`},
		{"elect answer with members", (&ElectMasterResponseBody{
			BrokerMemberGroup: &BrokerMemberGroup{Cluster: "cluster-a", BrokerName: "broker-set-a",
				BrokerAddrs: map[int64]string{2: "127.0.0.1:9001", 1: "127.0.0.1:9000"}},
			SyncStateSet: []int64{1},
		}).Encode(),
			`{"brokerMemberGroup":{"brokerAddrs":{1:"127.0.0.1:9000",2:"127.0.0.1:9001"},"brokerName":"broker-set-a","cluster":"cluster-a"},"syncStateSet":[1]}`},
		{"elect answer, master still exists", (&ElectMasterResponseBody{SyncStateSet: []int64{3, 1}}).Encode(),
			`{"syncStateSet":[1,3]}`},
		{"replicas info", (&BrokerReplicasInfo{ReplicasInfoTable: map[string]ReplicasInfo{
			"b": {MasterEpoch: 2, SyncStateSetEpoch: 3},
			"a": {
				InSyncReplicas:    []ReplicaIdentity{{Alive: true, BrokerAddress: "127.0.0.1:9000", BrokerID: 1, BrokerName: "a"}},
				MasterAddress:     ptr("127.0.0.1:9000"),
				MasterBrokerID:    ptr(int64(1)),
				MasterEpoch:       1,
				NotInSyncReplicas: []ReplicaIdentity{{BrokerAddress: "127.0.0.1:9001", BrokerID: 2, BrokerName: "a"}},
				SyncStateSetEpoch: 2,
			},
		}}).Encode(),
			`{"replicasInfoTable":{"a":{"inSyncReplicas":[{"alive":true,"brokerAddress":"127.0.0.1:9000","brokerId":1,"brokerName":"a"}],"masterAddress":"127.0.0.1:9000","masterBrokerId":1,"masterEpoch":1,"notInSyncReplicas":[{"alive":false,"brokerAddress":"127.0.0.1:9001","brokerId":2,"brokerName":"a"}],"syncStateSetEpoch":2},` +
				`"b":{"inSyncReplicas":[],"masterEpoch":2,"notInSyncReplicas":[],"syncStateSetEpoch":3}}}`},
		{"no replicas", (&BrokerReplicasInfo{}).Encode(), `{"replicasInfoTable":{}}`},
		{"escaped name", (&BrokerMemberGroup{BrokerName: `q"`, BrokerAddrs: map[int64]string{}}).appendTo(nil),
			`{"brokerAddrs":{},"brokerName":"q\"","cluster":""}`},
	}
	for _, c := range cases {
		if string(c.got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
	}
}

func TestDecodeSyncStateSet(t *testing.T) {
	s, err := DecodeSyncStateSet([]byte(`{"syncStateSet":[3,1,3],"syncStateSetEpoch":7}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, &SyncStateSet{SyncStateSet: []int64{1, 3}, SyncStateSetEpoch: 7}) {
		t.Fatalf("got %+v", s)
	}
	if _, err := DecodeSyncStateSet([]byte(`{"syncStateSet":"x"}`)); err == nil {
		t.Fatal("a malformed body decoded")
	}
}

func TestDecodeBrokerNames(t *testing.T) {
	names, err := DecodeBrokerNames([]byte(`["broker-a","broker-b"]`))
	if err != nil || !reflect.DeepEqual(names, []string{"broker-a", "broker-b"}) {
		t.Fatalf("got %v, %v", names, err)
	}
	if _, err := DecodeBrokerNames([]byte(`{`)); err == nil {
		t.Fatal("a malformed body decoded")
	}
}
