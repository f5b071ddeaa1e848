package wire

import (
	"bytes"
	"reflect"
	"testing"
)

func TestControllerPeersRoundTripAndBound(t *testing.T) {
	in := &ControllerPeers{Voters: []ControllerPeer{{ID: "n0", Addr: "127.0.0.1:9878", RaftAddr: "127.0.0.1:10878"}}, Index: 7}
	out, err := DecodeControllerPeers(in.Encode())
	if err != nil || !reflect.DeepEqual(in, out) {
		t.Fatalf("got %+v %v", out, err)
	}
	if _, err := DecodeControllerPeers(bytes.Repeat([]byte(" "), MaxControllerPeersBody+1)); err == nil {
		t.Fatal("a body past the bound was read")
	}
	h := AddControllerPeerRequest{Peer: "n3-127.0.0.1:9000"}
	var back AddControllerPeerRequest
	if err := fromExt(map[string]string{"peer": h.Peer}, &back); err != nil || back != h {
		t.Fatalf("header %+v %v", back, err)
	}
	if err := fromExt(map[string]string{}, &RemoveControllerPeerRequest{}); err == nil {
		t.Fatal("5023 without an id was read")
	}
}
