package wire

import (
	"errors"
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// The headers are read and written by remoting's header codec (rmq tags),
// as the NameServer's are; these tests pin the controller's Java names and
// null handling through it.

func fromExt(m map[string]string, header any) error {
	return remoting.DecodeHeader(&remoting.Command{ExtFields: m}, header)
}

func TestEncodeHeaderUsesJavaNamesAndLeavesNullsOut(t *testing.T) {
	got := remoting.EncodeHeader(&RegisterBrokerResponse{ClusterName: "c", BrokerName: "b", MasterBrokerID: ptr(int64(1)),
		MasterAddress: ptr("127.0.0.1:9000"), MasterEpoch: ptr(int32(2))})
	want := map[string]string{"clusterName": "c", "brokerName": "b", "masterBrokerId": "1",
		"masterAddress": "127.0.0.1:9000", "masterEpoch": "2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	meta := remoting.EncodeHeader(&GetMetaDataResponse{Group: "g", ControllerLeaderID: "n0", IsLeader: true, Peers: "n0:127.0.0.1:9877;"})
	if meta["isLeader"] != "true" || meta["controllerLeaderId"] != "n0" || meta["controllerLeaderAddress"] != "" {
		t.Fatalf("metadata ext fields %v", meta)
	}
}

func TestDecodeHeaderKeepsDefaultsAndParsesJavaValues(t *testing.T) {
	r := NewElectMasterRequest()
	err := fromExt(map[string]string{"clusterName": "c", "brokerName": "b", "brokerId": "-1", "designateElect": "TRUE"}, r)
	if err != nil {
		t.Fatal(err)
	}
	if *r != (ElectMasterRequest{ClusterName: "c", BrokerName: "b", BrokerID: -1, DesignateElect: true}) || !r.ControllerTriggered() {
		t.Fatalf("got %+v", r)
	}
	// Java 5.3.3 serves a 1002 without any field, each taking its default;
	// 1012 and 1013 without clusterName (recorded: test/testdata/controller-java-5.3.3).
	bare := NewElectMasterRequest()
	if err := fromExt(map[string]string{}, bare); err != nil || *bare != (ElectMasterRequest{BrokerID: -1}) {
		t.Fatalf("1002 without fields: %+v %v", bare, err)
	}
	if err := fromExt(map[string]string{"brokerName": "b"}, &GetNextBrokerIDRequest{}); err != nil {
		t.Fatalf("1012 without clusterName: %v", err)
	}
	if err := fromExt(map[string]string{"brokerName": "b", "appliedBrokerId": "1", "registerCheckCode": "a;1"}, &ApplyBrokerIDRequest{}); err != nil {
		t.Fatalf("1013 without clusterName: %v", err)
	}
	if got := remoting.EncodeHeader(&GetNextBrokerIDResponse{BrokerName: "b", NextBrokerID: 3}); !reflect.DeepEqual(got, map[string]string{"brokerName": "b", "nextBrokerId": "3"}) {
		t.Fatalf("1012's answer without a cluster: %v (Java leaves the null out)", got)
	}
	hb := &BrokerHeartbeatRequest{}
	if err := fromExt(map[string]string{"brokerName": "b", "epoch": "3", "maxOffset": "9000000000"}, hb); err != nil {
		t.Fatal(err)
	}
	if hb.BrokerID != nil || *hb.Epoch != 3 || *hb.MaxOffset != 9000000000 || hb.ElectionPriority != nil {
		t.Fatalf("got %+v", hb)
	}
}

func TestDecodeHeaderRejectsMissingAndMalformedFields(t *testing.T) {
	var missing *remoting.HeaderError
	err := fromExt(map[string]string{"clusterName": "c"}, &ApplyBrokerIDRequest{})
	if !errors.As(err, &missing) || !missing.Missing || missing.Field != "brokerName" {
		t.Fatalf("missing field: got %v", err)
	}
	if err.Error() != "the custom field <brokerName> is null" {
		t.Fatalf("remark %q", err)
	}
	err = fromExt(map[string]string{"brokerName": "b", "masterBrokerId": "1", "masterEpoch": "99999999999"}, &AlterSyncStateSetRequest{})
	if !errors.As(err, &missing) || missing.Missing || missing.Field != "masterEpoch" {
		t.Fatalf("an int32 overflow parsed: %v", err)
	}
}

func TestExtRoundTrip(t *testing.T) {
	headers := []any{
		&AlterSyncStateSetRequest{BrokerName: "b", MasterBrokerID: 1, MasterEpoch: 2, InvokeTime: 3},
		&AlterSyncStateSetResponse{NewSyncStateSetEpoch: 4},
		&ElectMasterRequest{ClusterName: "c", BrokerName: "b", BrokerID: 2, DesignateElect: true, InvokeTime: 5},
		&ElectMasterResponse{MasterBrokerID: ptr(int64(1)), MasterAddress: ptr("a"), MasterEpoch: ptr(int32(1)), SyncStateSetEpoch: ptr(int32(2))},
		&RegisterBrokerRequest{ClusterName: "c", BrokerName: "b", BrokerID: 1, BrokerAddress: "a", InvokeTime: 6},
		&GetReplicaInfoRequest{BrokerName: "b"},
		&GetReplicaInfoResponse{MasterBrokerID: ptr(int64(3)), MasterEpoch: ptr(int32(4))},
		&CleanBrokerDataRequest{ClusterName: "c", BrokerName: "b", BrokerControllerIdsToClean: "1;2", IsCleanLivingBroker: true},
		&GetNextBrokerIDRequest{ClusterName: "c", BrokerName: "b"},
		&GetNextBrokerIDResponse{ClusterName: "c", BrokerName: "b", NextBrokerID: 7},
		&ApplyBrokerIDRequest{ClusterName: "c", BrokerName: "b", AppliedBrokerID: 1, RegisterCheckCode: "a;1"},
		&ApplyBrokerIDResponse{ClusterName: "c", BrokerName: "b"},
		&BrokerHeartbeatRequest{BrokerName: "b", BrokerID: ptr(int64(1)), ElectionPriority: ptr(int32(2147483647))},
		&NotifyBrokerRoleChangedRequest{MasterAddress: "a", MasterEpoch: 2, SyncStateSetEpoch: 3, MasterBrokerID: 1},
	}
	for _, h := range headers {
		back := reflect.New(reflect.TypeOf(h).Elem()).Interface()
		if err := fromExt(remoting.EncodeHeader(h), back); err != nil {
			t.Fatalf("%T: %v", h, err)
		}
		if !reflect.DeepEqual(h, back) {
			t.Errorf("%T: got %+v, want %+v", h, back, h)
		}
	}
}
