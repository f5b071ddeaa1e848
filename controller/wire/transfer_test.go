package wire

import (
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// 5021's headers travel under their ext names, the window as a number, and
// an absent targetId reads as "" (Raft picks).
func TestTransferHeadersUseTheirExtNames(t *testing.T) {
	got := remoting.EncodeHeader(&TransferLeaderResponse{OldLeaderID: "n0", OldLeaderAddress: "127.0.0.1:9878",
		NewLeaderID: "n1", NewLeaderAddress: "127.0.0.1:9868", WindowMillis: 42})
	want := map[string]string{"oldLeaderId": "n0", "oldLeaderAddress": "127.0.0.1:9878", "newLeaderId": "n1",
		"newLeaderAddress": "127.0.0.1:9868", "windowMillis": "42"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	var back TransferLeaderResponse
	if err := fromExt(got, &back); err != nil || back.WindowMillis != 42 || back.NewLeaderID != "n1" {
		t.Fatalf("decoded %+v (%v)", back, err)
	}
	var req TransferLeaderRequest
	if err := fromExt(map[string]string{}, &req); err != nil || req.TargetID != "" {
		t.Fatalf("no targetId: %+v (%v)", req, err)
	}
	if ext := remoting.EncodeHeader(&TransferLeaderRequest{TargetID: "n2"}); ext["targetId"] != "n2" {
		t.Fatalf("request ext %v", ext)
	}
}
