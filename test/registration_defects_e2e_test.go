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

// TestControllerFailoverAgainstTheBinary: RocketMQ 5's controller-mode
// failover (Java's rule, apache/rocketmq#6317). A new master registering
// broker-a id 0 at its own address with a higher stateVersion (its master
// epoch) while the old master is still connected takes the id; the old
// master's next registration, at its older stateVersion, is answered 0
// without masterAddr and changes nothing; both are logged. The bounds stay:
// a stateVersion past a Java int and a heartbeat timeout of 1e15 are
// refused with a remark.
func TestControllerFailoverAgainstTheBinary(t *testing.T) {
	ns := startNamesrv(t)
	oldConn := nstest.NewClient(t, ns.Addr)
	old := nstest.BrokerAMaster
	old.Version.StateVersion = 1
	nstest.Register(t, oldConn, old)
	next := old
	next.Addr, next.HAAddr = "127.0.0.66:10911", "127.0.0.66:10912"
	newConn := nstest.NewClient(t, ns.Addr)
	next.Version.StateVersion = 1 << 62
	if resp := nstest.Invoke(t, newConn, next.RegisterRequest()); resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "stateVersion") {
		t.Fatalf("stateVersion 2^62: code %d remark %q, want code 1 naming the bound", resp.Code, resp.Remark)
	}
	timeout := nstest.BrokerB.RequestWith(nstest.BrokerB.Body())
	timeout.ExtFields["heartbeatTimeoutMillis"] = "1000000000000000"
	if resp := nstest.Invoke(t, newConn, timeout); resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "heartbeatTimeoutMillis") {
		t.Fatalf("heartbeatTimeoutMillis 1e15: code %d remark %q", resp.Code, resp.Remark)
	}
	next.Version.StateVersion = 2
	nstest.Register(t, newConn, next)
	masterOfTopicA := func() string {
		t.Helper()
		data, code, err := routeOf(ns.Addr, "TopicA")
		if err != nil || code != remoting.SUCCESS {
			t.Fatalf("route of TopicA: code %d %v", code, err)
		}
		return data.BrokerDatas[0].BrokerAddrs[0]
	}
	if got := masterOfTopicA(); got != next.Addr {
		t.Fatalf("master of TopicA after the failover = %q, want the new master %q", got, next.Addr)
	}
	old.Version.Counter++
	resp := nstest.Register(t, oldConn, old)
	if addr := resp.ExtFields["masterAddr"]; addr != "" {
		t.Fatalf("the old master's ignored registration was told masterAddr %q", addr)
	}
	if got := masterOfTopicA(); got != next.Addr {
		t.Fatalf("the old master at an older stateVersion took id 0 back: %q", got)
	}
	eventually(t, 10*time.Second, "both logged", func() error {
		out, err := os.ReadFile(ns.logPath)
		if err != nil || !bytes.Contains(out, []byte("took the broker id over")) || !bytes.Contains(out, []byte("register broker ignored")) {
			return fmt.Errorf("not yet in the log (%v)", err)
		}
		return nil
	})
}
