package main

import (
	"bytes"
	"testing"
)

func TestPrintBrokerStatusJavaLayout(t *testing.T) {
	var out bytes.Buffer
	e := &env{out: &out}
	table := map[string]string{"brokerVersionDesc": "V5_3_3", "brokerActive": "true"}
	printBrokerStatus(e, "h:1", table, false)
	printBrokerStatus(e, "h:1", table, true)
	want := "brokerActive                    : true\nbrokerVersionDesc               : V5_3_3\n" +
		"h:1                      brokerActive                    : true\nh:1                      brokerVersionDesc               : V5_3_3\n"
	if out.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", out.String(), want)
	}
}
