package wire

import (
	"math"
	"testing"
)

func TestEpochEntryCacheIsJavasLayout(t *testing.T) {
	c := &EpochEntryCache{ClusterName: "c", BrokerName: "b", BrokerID: 2, MaxOffset: 300,
		EpochList: []EpochEntry{{Epoch: 1, StartOffset: 0, EndOffset: 100}, {Epoch: 2, StartOffset: 100, EndOffset: math.MaxInt64}}}
	want := `{"brokerId":2,"brokerName":"b","clusterName":"c","epochList":[{"endOffset":100,"epoch":1,"startOffset":0},` +
		`{"endOffset":9223372036854775807,"epoch":2,"startOffset":100}],"maxOffset":300}`
	if got := string(c.Encode()); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	back, err := DecodeEpochEntryCache([]byte(want))
	if err != nil || len(back.EpochList) != 2 || back.EpochList[1].StartOffset != 100 || back.BrokerID != 2 {
		t.Fatalf("decoded %+v, %v", back, err)
	}
	if s := back.EpochList[0].String(); s != "EpochEntry{epoch=1, startOffset=0, endOffset=100}" {
		t.Fatalf("String %q", s)
	}
	if got := string((&EpochEntryCache{}).Encode()); got != `{"brokerId":0,"brokerName":"","clusterName":"","epochList":[],"maxOffset":0}` {
		t.Fatalf("empty cache %s", got)
	}
	if _, err := DecodeEpochEntryCache([]byte("{")); err == nil {
		t.Fatal("bad body accepted")
	}
}
