package route

import (
	"reflect"
	"testing"
)

// Fixture 014 is fixture 010's route filtered for zone 华东/az-b and
// re-encoded plain.
func TestFilterByZoneFixture014(t *testing.T) {
	route, err := DecodeTopicRouteData(responseBody(t, "010"))
	if err != nil {
		t.Fatal(err)
	}
	before := EncodeTopicRouteData(nil, route, true)
	filtered := FilterByZone(route, "华东/AZ-B")
	if got, want := EncodeTopicRouteData(nil, filtered, false), responseBody(t, "014"); string(got) != string(want) {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if after := EncodeTopicRouteData(nil, route, true); string(after) != string(before) {
		t.Fatal("FilterByZone modified its input")
	}
}

func TestFilterByZoneRules(t *testing.T) {
	route := &TopicRouteData{
		OrderTopicConf: "x:1",
		BrokerDatas: []BrokerData{
			{BrokerName: "in-zone", ZoneName: "Z1", BrokerAddrs: map[int64]string{0: "a0", 1: "a1"}},
			{BrokerName: "other", ZoneName: "z2", BrokerAddrs: map[int64]string{0: "b0", 1: "b1"}},
			{BrokerName: "no-master", ZoneName: "z2", BrokerAddrs: map[int64]string{1: "c1"}},
			{BrokerName: "no-zone", BrokerAddrs: map[int64]string{0: "d0"}},
			{BrokerName: "empty", ZoneName: "z2"},
		},
		QueueDatas: []QueueData{{BrokerName: "in-zone"}, {BrokerName: "other"}, {BrokerName: "no-master"},
			{BrokerName: "no-zone"}, {BrokerName: "unknown"}},
		FilterServerTable: map[string][]string{"a0": {"f"}, "b1": {"g"}, "d0": {"h"}, "zz": {"i"}},
	}
	got := FilterByZone(route, "z1")
	var names []string
	for _, b := range got.BrokerDatas {
		names = append(names, b.BrokerName)
	}
	if want := []string{"in-zone", "no-master", "empty"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("brokers %v, want %v", names, want)
	}
	want := []QueueData{{BrokerName: "in-zone"}, {BrokerName: "no-master"}, {BrokerName: "unknown"}}
	if !reflect.DeepEqual(got.QueueDatas, want) {
		t.Fatalf("queues %v", got.QueueDatas)
	}
	if want := map[string][]string{"a0": {"f"}, "zz": {"i"}}; !reflect.DeepEqual(got.FilterServerTable, want) {
		t.Fatalf("filter servers %v", got.FilterServerTable)
	}
	if got.OrderTopicConf != "x:1" || len(route.BrokerDatas) != 5 || len(route.FilterServerTable) != 4 {
		t.Fatal("order conf lost or input modified")
	}
}
