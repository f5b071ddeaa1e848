package test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Registration defects of issue 13 item 6 and issue 12 item 6, against the
// real binary.

// TestGhostBrokerAgainstTheBinary: a 4.4 MB REGISTER followed at once by a
// close left the broker listed 5 s later (until its 120 s expiry).
func TestGhostBrokerAgainstTheBinary(t *testing.T) {
	ns := startNamesrv(t)
	b := nstest.BrokerAMaster
	b.Topics = map[string]int32{}
	for i := range 30_000 {
		b.Topics[fmt.Sprintf("GhostTopic-%06d", i)] = 8
	}
	frame, err := remoting.Encode(b.RegisterRequest())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(frame); err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	eventually(t, 20*time.Second, "the registration handled", func() error {
		out, err := os.ReadFile(ns.logPath)
		if err != nil || !bytes.Contains(out, []byte("register broker dropped")) && !bytes.Contains(out, []byte("broker registered")) {
			return fmt.Errorf("not yet in the log (%v)", err)
		}
		return nil
	})
	time.Sleep(200 * time.Millisecond) // a close would be applied by now
	if _, code, err := routeOf(ns.Addr, "GhostTopic-000000"); err != nil || code != remoting.TOPIC_NOT_EXIST {
		t.Fatalf("route of a ghost broker's topic: code %d, %v; want TOPIC_NOT_EXIST", code, err)
	}
	if known, err := brokerAddrsOf(ns.Addr); err != nil || len(known) != 0 {
		t.Fatalf("brokers listed after their connection closed: %v %v", known, err)
	}
}

// TestRouteTakeoverAgainstTheBinary: a stranger registering broker-a id 0
// at a fake address with stateVersion 2^62, or any, is refused with a
// remark; the route keeps the real master, whose registrations succeed.
func TestRouteTakeoverAgainstTheBinary(t *testing.T) {
	ns := startNamesrv(t)
	real := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, real, nstest.BrokerAMaster)
	fake := nstest.BrokerAMaster
	fake.Addr, fake.HAAddr = "127.0.0.66:10911", "127.0.0.66:10912"
	attacker := nstest.NewClient(t, ns.Addr)
	for _, state := range []int64{1 << 62, 1} {
		fake.Version.StateVersion = state
		resp := nstest.Invoke(t, attacker, fake.RegisterRequest())
		if resp.Code != remoting.SYSTEM_ERROR || !strings.HasPrefix(resp.Remark, "register broker") {
			t.Fatalf("stateVersion %d: code %d remark %q, want code 1 saying it was refused", state, resp.Code, resp.Remark)
		}
	}
	timeout := nstest.BrokerB.RequestWith(nstest.BrokerB.Body())
	timeout.ExtFields["heartbeatTimeoutMillis"] = "1000000000000000"
	if resp := nstest.Invoke(t, attacker, timeout); resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "heartbeatTimeoutMillis") {
		t.Fatalf("heartbeatTimeoutMillis 1e15: code %d remark %q", resp.Code, resp.Remark)
	}
	data, code, err := routeOf(ns.Addr, "TopicA")
	if err != nil || code != remoting.SUCCESS || data.BrokerDatas[0].BrokerAddrs[0] != nstest.BrokerAMaster.Addr {
		t.Fatalf("route of TopicA: code %d %v %+v", code, err, data)
	}
	again := nstest.BrokerAMaster
	again.Version.Counter++
	nstest.Register(t, real, again)
}
