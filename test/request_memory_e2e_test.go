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
//
// Whether a frame arrives while the first is applied is up to the
// scheduler: under nice -n 10 beside a build, the test's writer was once
// held off until the first was done, and all 12 were applied (the next
// ones, unchanged, take the quick path). So a flood is sent again, with a
// changed topic table so that its first is applied in full again, until one
// has answers past the limit, 5 floods at most; every answer of every
// flood must be SUCCESS or the overload's code 2.
func TestRegistrationFloodPastTheRequestMemoryLimit(t *testing.T) {
	ns := startNamesrv(t, "-requestMemoryLimit", "3145728")
	conn, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const floods = 5
	busy := 0
	var codes map[int32]int32
	for flood := 1; flood <= floods && busy == 0; flood++ {
		codes = registrationFlood(t, conn, flood)
		for _, code := range codes {
			if code == remoting.SYSTEM_BUSY {
				busy++
			}
		}
	}
	if busy == 0 {
		t.Fatalf("answers %v (and %d floods before): want some past the limit answered busy", codes, floods-1)
	}
	client := nstest.NewClient(t, ns.Addr)
	route := nstest.RouteQuery(t, client, "FloodTopic-09999", 479)
	nstest.MustCode(t, route, remoting.SUCCESS)
}

// registrationFlood pipelines 12 registrations of broker-a with 10,000
// topics at data version flood on conn, each topic with 8+flood queues so
// that every flood changes the topic table, and returns
// each answer's code by opaque; the first must be applied, and every answer
// must be SUCCESS or the overload's SYSTEM_BUSY.
func registrationFlood(t *testing.T, conn net.Conn, flood int) map[int32]int32 {
	t.Helper()
	broker := nstest.BrokerAMaster
	broker.Version.Counter = int64(flood)
	broker.Topics = map[string]int32{}
	for i := range 10000 {
		broker.Topics[fmt.Sprintf("FloodTopic-%05d", i)] = int32(8 + flood)
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
	for opaque := int32(1); opaque <= frames; opaque++ {
		if _, ok := codes[opaque]; !ok {
			t.Fatalf("no answer to registration %d: %v", opaque, codes)
		}
	}
	if codes[1] != remoting.SUCCESS {
		t.Fatalf("answers %v: want the first applied", codes)
	}
	return codes
}
