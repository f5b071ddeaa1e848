package route

import (
	"reflect"
	"testing"
)

func TestBrokerMemberGroupFixtures(t *testing.T) {
	for _, fixture := range []string{"062", "063", "083"} {
		body := responseBody(t, fixture)
		g, err := DecodeGetBrokerMemberGroupResponseBody(body)
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		if got := EncodeGetBrokerMemberGroupResponseBody(nil, g); string(got) != string(body) {
			t.Errorf("%s: got %s, want %s", fixture, got, body)
		}
	}
}

func TestEncodeBrokerMemberGroupIsPlain(t *testing.T) {
	body := &GetBrokerMemberGroupResponseBody{BrokerMemberGroup: BrokerMemberGroup{
		Cluster: "DefaultCluster", BrokerName: "broker-a",
		BrokerAddrs: map[int64]string{1: "192.168.0.2:10911", 0: "192.168.0.1:10911"}}}
	want := `{"brokerMemberGroup":{"brokerAddrs":{0:"192.168.0.1:10911",1:"192.168.0.2:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}}`
	got := EncodeGetBrokerMemberGroupResponseBody(nil, body)
	if string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	back, err := DecodeGetBrokerMemberGroupResponseBody(got)
	if err != nil || !reflect.DeepEqual(back, body) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
}
