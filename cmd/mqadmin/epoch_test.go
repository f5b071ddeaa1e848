package main

import (
	"math"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestEpochCacheIsPrintedAsJavaDoes(t *testing.T) {
	var b strings.Builder
	writeEpochCache(&b, "127.0.0.1:10911", &wire.EpochEntryCache{ClusterName: "c", BrokerName: "broker-a", BrokerID: 1, MaxOffset: 500,
		EpochList: []wire.EpochEntry{{Epoch: 1, StartOffset: 0, EndOffset: 200}, {Epoch: 2, StartOffset: 200, EndOffset: math.MaxInt64}}})
	want := "\n#clusterName\tc\n#brokerName\tbroker-a\n#brokerAddr\t127.0.0.1:10911\n#brokerId\t1" +
		"\n#Epoch: EpochEntry{epoch=1, startOffset=0, endOffset=200}\n#Epoch: EpochEntry{epoch=2, startOffset=200, endOffset=500}\n"
	if b.String() != want {
		t.Fatalf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	writeEpochCache(&b, "a:1", &wire.EpochEntryCache{BrokerID: 0})
	if b.String() != "\n#clusterName\tnull\n#brokerName\tnull\n#brokerAddr\ta:1\n#brokerId\t0\n" {
		t.Fatalf("empty cache %q", b.String())
	}
}

func TestSetAddressesSorted(t *testing.T) {
	info := &route.ClusterInfo{BrokerAddrTable: map[string]route.BrokerData{"s": {BrokerAddrs: map[int64]string{0: "b:2", 1: "a:1"}}}}
	if got := setAddresses(info, "s"); strings.Join(got, ",") != "a:1,b:2" {
		t.Fatalf("%v", got)
	}
	if got := setAddresses(info, "none"); got != nil {
		t.Fatalf("%v", got)
	}
}

func TestGetBrokerEpochWithoutTargetPrintsUsage(t *testing.T) {
	_, out, code := runCapture("getBrokerEpoch", "-n", "127.0.0.1:1")
	if !strings.Contains(out, "usage: mqadmin getBrokerEpoch") || !strings.Contains(out, "-b,--brokerName <arg>") {
		t.Fatalf("exit %d, out:\n%s", code, out)
	}
}
