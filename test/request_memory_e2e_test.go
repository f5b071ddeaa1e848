package test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestRegistrationFloodPastTheRequestMemoryLimit pipelines 12 registrations
// of a 10,000-topic broker (2 MB each) on one connection to a NameServer
// whose request memory is 3 MiB. The first is decoded and applied (10 ms or
// more) while the next ones arrive: those past the limit are answered code
// 2, the others applied, every one is answered on the same connection, and
// the broker's routes are there afterwards.
func TestRegistrationFloodPastTheRequestMemoryLimit(t *testing.T) {
	ns := startNamesrv(t, "-requestMemoryLimit", "3145728")
	broker := nstest.BrokerAMaster
	broker.Topics = map[string]int32{}
	for i := range 10000 {
		broker.Topics[fmt.Sprintf("FloodTopic-%05d", i)] = 8
	}
	const frames = 12
	var stream []byte
	for i := range frames {
		req := broker.RegisterRequest()
		req.Opaque = int32(i + 1)
		frame, err := remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, frame...)
	}
	conn, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	go func() { _, _ = conn.Write(stream) }()

	codes := map[int32]int32{}
	for range frames {
		resp, err := remoting.DecodeFrame(readFrame(t, conn, "registration")[4:])
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case resp.Code == remoting.SUCCESS:
		case resp.Code == remoting.SYSTEM_BUSY && strings.Contains(resp.Remark, "[OVERLOAD]"):
		default:
			t.Fatalf("answer to %d: code %d remark %q", resp.Opaque, resp.Code, resp.Remark)
		}
		codes[resp.Opaque] = resp.Code
	}
	busy := 0
	for opaque := int32(1); opaque <= frames; opaque++ {
		code, ok := codes[opaque]
		if !ok {
			t.Fatalf("no answer to registration %d: %v", opaque, codes)
		}
		if code == remoting.SYSTEM_BUSY {
			busy++
		}
	}
	if codes[1] != remoting.SUCCESS || busy == 0 {
		t.Fatalf("answers %v: want the first applied and some past the limit answered busy", codes)
	}
	client := nstest.NewClient(t, ns.Addr)
	route := nstest.RouteQuery(t, client, "FloodTopic-09999", 479)
	nstest.MustCode(t, route, remoting.SUCCESS)
}
