package wire

import (
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestNamesrvNoticeHeaderRoundTripsAndNeedsItsSetAndEpoch(t *testing.T) {
	sent := NotifyNamesrvMasterElectedRequest{ClusterName: "c", BrokerName: "b", MasterAddress: "127.0.0.1:10911",
		MasterBrokerID: 2, MasterEpoch: 3}
	ext := remoting.EncodeHeader(&sent)
	want := map[string]string{"clusterName": "c", "brokerName": "b", "masterAddress": "127.0.0.1:10911",
		"masterBrokerId": "2", "masterEpoch": "3"}
	if !reflect.DeepEqual(ext, want) {
		t.Fatalf("ext %v, want %v", ext, want)
	}
	var got NotifyNamesrvMasterElectedRequest
	if err := fromExt(ext, &got); err != nil || got != sent {
		t.Fatalf("decoded %+v (%v), want %+v", got, err, sent)
	}
	delete(ext, "masterEpoch")
	if err := fromExt(ext, &got); err == nil {
		t.Fatal("a notice without masterEpoch decoded")
	}
}
