package main

import "testing"

func TestFormatBrokerConfigIsJavasLayoutSorted(t *testing.T) {
	got := formatBrokerConfig(map[string]string{"brokerName": "broker-a", "brokerId": "0"})
	want := "brokerId                                          =  0\n" +
		"brokerName                                        =  broker-a\n\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestBrokerConfigHeader(t *testing.T) {
	for _, tc := range []struct {
		target brokerTarget
		want   string
	}{
		{brokerTarget{addr: "h:9"}, "============h:9============\n"},
		{brokerTarget{addr: "h:1", brokerName: "a", id: 0, masterAddr: "h:1"}, "============Master: h:1============\n"},
		{brokerTarget{addr: "h:2", brokerName: "a", id: 1, masterAddr: "h:1"}, "============My Master: h:1=====Slave: h:2============\n"},
		{brokerTarget{addr: "h:3", brokerName: "b", id: 2}, "============My Master: NO_MASTER=====Slave: h:3============\n"},
	} {
		if got := brokerConfigHeader(tc.target); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.target, got, tc.want)
		}
	}
}
