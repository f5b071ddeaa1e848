package route

import (
	"reflect"
	"testing"
)

func TestEncodeTopicQueueMappingInfoSpecExample(t *testing.T) {
	m := &TopicQueueMappingInfo{Topic: "T", Scope: "__global__", Bname: "broker-a", TotalQueues: 4, Epoch: 1,
		CurrIDMap: map[int32]int32{1: 1, 0: 0}}
	plain := `{"bname":"broker-a","currIdMap":{0:0,1:1},"dirty":false,"epoch":1,"scope":"__global__","topic":"T","totalQueues":4}`
	if got := string(EncodeTopicQueueMappingInfo(nil, m, false)); got != plain {
		t.Fatalf("plain: got %s, want %s", got, plain)
	}
	m.Epoch = 1 << 60
	standard := `{"bname":"broker-a","currIdMap":{"0":0,"1":1},"dirty":false,"epoch":"1152921504606846976","scope":"__global__","topic":"T","totalQueues":4}`
	if got := string(EncodeTopicQueueMappingInfo(nil, m, true)); got != standard {
		t.Fatalf("standard: got %s, want %s", got, standard)
	}
}

func TestDecodeTopicQueueMappingInfoDefaultsAndBareKeys(t *testing.T) {
	got, err := DecodeTopicQueueMappingInfo([]byte(`{"topic":"T","currIdMap":{0:3,"1":4},"hostedQueues":{0:[{"a":1}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &TopicQueueMappingInfo{Topic: "T", Scope: DefaultMappingScope, CurrIDMap: map[int32]int32{0: 3, 1: 4}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if _, err := DecodeTopicQueueMappingInfo([]byte(`{"currIdMap":{4294967296:1}}`)); err == nil {
		t.Fatal("an out-of-range queue id was accepted")
	}
}
