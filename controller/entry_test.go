package controller

import (
	"reflect"
	"strings"
	"testing"
)

func allEvents() []Event {
	return []Event{
		AlterSyncStateSetEvent{BrokerName: "b", NewSyncStateSet: []int64{1, 2}},
		ApplyBrokerIDEvent{ClusterName: "c", BrokerName: "b", BrokerAddress: "127.0.0.1:9000", RegisterCheckCode: "127.0.0.1:9000;5", NewBrokerID: 1},
		ElectMasterEvent{NewMasterElected: true, BrokerName: "b", NewMasterBrokerID: 2},
		ReadEvent{},
		CleanBrokerDataEvent{BrokerName: "b", BrokerIDSetToClean: []int64{3}},
		UpdateBrokerAddressEvent{ClusterName: "c", BrokerName: "b", BrokerAddress: "127.0.0.1:9100", BrokerID: 1},
	}
}

func TestEntryRoundTripsEverySixEvents(t *testing.T) {
	events := allEvents()
	b, err := EncodeEntry(events)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := EncodeEntry(events)
	if string(again) != string(b) {
		t.Fatal("the same events encoded to different bytes")
	}
	back, err := DecodeEntry(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, events) {
		t.Fatalf("got %#v\nwant %#v", back, events)
	}
	for i, ev := range back {
		if ev.Type() != EventType(i+1) {
			t.Errorf("event %d has type %d", i, ev.Type())
		}
	}
}

func TestEntryLayoutIsTypeLengthJSON(t *testing.T) {
	b, _ := EncodeEntry([]Event{ElectMasterEvent{BrokerName: "b"}})
	body := `{"newMasterElected":false,"brokerName":"b","newMasterBrokerId":0}`
	want := "\x00\x03\x00\x00\x00" + string(rune(len(body))) + body
	if string(b) != want {
		t.Fatalf("got %q\nwant %q", b, want)
	}
	if events, err := DecodeEntry(nil); err != nil || len(events) != 0 {
		t.Fatalf("empty entry: %v %v", events, err)
	}
}

func TestDecodeEntryRejectsDamage(t *testing.T) {
	good, _ := EncodeEntry(allEvents()[:1])
	cases := map[string]struct {
		b    []byte
		want string
	}{
		"short header":   {good[:4], "truncated"},
		"short body":     {good[:len(good)-1], "claims"},
		"unknown type":   {append([]byte{0, 9}, good[2:]...), "unknown event type 9"},
		"malformed json": {[]byte("\x00\x01\x00\x00\x00\x01{"), "event type 1"},
	}
	for name, c := range cases {
		if _, err := DecodeEntry(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, c.want)
		}
	}
}
