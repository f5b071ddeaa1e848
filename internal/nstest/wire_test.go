package nstest

import (
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestRouteOfDecodesTheAnswer(t *testing.T) {
	addr, _ := startEchoServer(t)
	data, code, err := RouteOf(addr, "TopicA", time.Second)
	if err != nil || code != remoting.SUCCESS || data.BrokerDatas[0].BrokerName != "topic=TopicA" {
		t.Fatalf("RouteOf = %+v, %d, %v", data, code, err)
	}
	resp, err := Call(addr, remoting.REGISTER_BROKER, nil, nil, time.Second)
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("Call = %+v, %v", resp, err)
	}
}

// TestRouteOfReportsADownServer: no listener is an error and code -1, not
// a test failure.
func TestRouteOfReportsADownServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if data, code, err := RouteOf(addr, "TopicA", time.Second); err == nil || code != -1 || data != nil {
		t.Fatalf("RouteOf a closed port = %+v, %d, %v", data, code, err)
	}
}
