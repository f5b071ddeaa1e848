package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
)

func TestFormatHAStatusMaster(t *testing.T) {
	got := formatHAStatus("h:1", admin.HARuntimeInfo{Master: true, MasterCommitLogMaxOffset: 100, InSyncSlaveNums: 1,
		HAConnectionInfo: []admin.HAConnectionRuntimeInfo{{Addr: "h:2", SlaveAckOffset: 90, Diff: 10, InSync: true, TransferredByteInSecond: 2048}}})
	want := "\n#MasterAddr\th:1\n#MasterCommitLogMaxOffset\t100\n#SlaveNum\t1\n#InSyncSlaveNum\t1\n" +
		"#SlaveAddr                        #SlaveAckOffset             #Diff #TransferSpeed(KB/s)          #Status #TransferFromWhere\n" +
		"h:2                               90                             10             2.00               OK                0\n"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestFormatHAStatusSlave(t *testing.T) {
	got := formatHAStatus("h:2", admin.HARuntimeInfo{HAClientRuntimeInfo: admin.HAClientRuntimeInfo{MasterAddr: "h:1", MaxOffset: 5}})
	if !strings.HasPrefix(got, "\n#MasterAddr\th:1\n#CommitLogMaxOffset\t5\n#TransferSpeed(KB/s)\t0.00\n#LastReadTime\t") ||
		!strings.HasSuffix(got, "\n#MasterFlushOffset\t0\n") {
		t.Fatalf("got %q", got)
	}
	if got := formatHAStatus("h:2", admin.HARuntimeInfo{}); !strings.HasPrefix(got, "\n#MasterAddr\tnull\n") {
		t.Fatalf("no master known: %q", got)
	}
}

func TestJavaMillisTime(t *testing.T) {
	millis := time.Date(2024, 3, 5, 7, 8, 9, 12*int(time.Millisecond), time.Local).UnixMilli()
	if got := javaMillisTime(millis); got != "2024-03-05 07:08:09,012" {
		t.Fatalf("got %q", got)
	}
}
