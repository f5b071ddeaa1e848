package main

import (
	"bytes"
	"testing"

	"github.com/gonamesrv/gonamesrv/broker/admin"
)

func TestRetryTopicGroupIsJavaParseGroup(t *testing.T) {
	for topic, want := range map[string]string{"%RETRY%G": "G", "%RETRY%G_T": "G_T", "%RETRY%G+T": "G"} {
		if got := retryTopicGroup(topic); got != want {
			t.Errorf("retryTopicGroup(%q) = %q, want %q", topic, got, want)
		}
	}
}

func TestGroupProgressTableIsJavas(t *testing.T) {
	stats := admin.ConsumeStats{ConsumeTps: 1.5, OffsetTable: map[admin.MessageQueue]admin.OffsetWrapper{
		{Topic: "T", BrokerName: "b", QueueID: 0}: {BrokerOffset: 10, ConsumerOffset: 4, PullOffset: 6},
	}}
	var out bytes.Buffer
	e := &env{out: &out, args: parsedArgs{values: map[string]string{}}}
	if err := printGroupProgress(e, stats); err != nil {
		t.Fatal(err)
	}
	want := "#Topic                                                            #Broker Name                      #QID  #Broker Offset        #Consumer Offset      #Diff                #Inflight           #LastTime\n" +
		"T                                                                 b                                 0     10                    4                     6                    2                    N/A\n" +
		"\nConsume TPS: 1.50\nConsume Diff Total: 6\nConsume Inflight Total: 2\n"
	if out.String() != want {
		t.Fatalf("table:\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	e.args.values["s"] = "true"
	if err := printGroupProgress(e, stats); err != nil {
		t.Fatal(err)
	}
	if want := "T                                                                 b                                 0     10                    4                     N/A                  6                    2                    N/A\n"; !bytes.Contains(out.Bytes(), []byte(want)) {
		t.Fatalf("-s true row missing:\n%s", out.String())
	}
}
