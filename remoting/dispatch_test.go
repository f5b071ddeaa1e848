package remoting

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestUnsupportedRemark(t *testing.T) {
	if got := unsupportedRemark(99999); got != " request type 99999 not supported" {
		t.Fatalf("remark %q", got)
	}
}

func TestAppendResponse(t *testing.T) {
	server := NewServer(ServerConfig{Logger: testlog.Discard()})
	request := &Command{Code: 1, Opaque: 9, SerializeType: ROCKETMQ}
	response := &Command{Code: 70000} // too wide for a binary header
	out := server.appendResponse(nil, &Conn{}, request, response)
	decoded := mustDecodeFrame(t, out)
	if decoded.SerializeType != JSON || decoded.Code != 70000 || decoded.Opaque != 9 || !decoded.IsResponse() {
		t.Fatalf("fallback answer %+v", *decoded)
	}
	oneway := &Command{Code: 1, Flag: 2}
	if out := server.appendResponse(nil, &Conn{}, oneway, &Command{}); len(out) != 0 {
		t.Fatal("answered a one-way request")
	}
	if out := server.appendResponse([]byte("x"), &Conn{}, request, nil); string(out) != "x" {
		t.Fatal("nil response changed out")
	}
}
