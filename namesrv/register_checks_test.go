package namesrv

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Regression tests of the registration defects of issue 13 item 5-6 and
// issue 12 item 6: each failed against the code before its fix.

// TestRegisterBrokerRequiresHAServerAddr: Java declares haServerAddr
// @CFNotNull like the other fields of protocol.md 2.4, so a registration
// without it is answered code 1 naming it, and changes nothing.
func TestRegisterBrokerRequiresHAServerAddr(t *testing.T) {
	s := startServer(t, nil)
	req := nstest.BrokerAMaster.RegisterRequest()
	delete(req.ExtFields, "haServerAddr")
	mustRefuse(t, nstest.Invoke(t, s.client, req), "the custom field <haServerAddr> is null")
	if s.topicExists("TopicA") {
		t.Fatal("a registration without haServerAddr was applied")
	}
}

// TestRegisterBrokerBounds: names, addresses, topic names, topic counts,
// state versions and heartbeat timeouts past their bounds are refused with
// a remark that says which, a warning, and no change.
func TestRegisterBrokerBounds(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name   string
		broker func(b *nstest.Broker)
		ext    map[string]string
		remark string
	}{
		{name: "broker name of 4 MiB", broker: func(b *nstest.Broker) { b.Name = long(4 << 20) }, remark: "brokerName is 4194304 bytes long"},
		{name: "cluster name of 256 bytes", broker: func(b *nstest.Broker) { b.Cluster = long(256) }, remark: "clusterName is 256 bytes long"},
		{name: "broker address of 256 bytes", broker: func(b *nstest.Broker) { b.Addr = long(256) }, remark: "brokerAddr is 256 bytes long"},
		{name: "ha address of 256 bytes", broker: func(b *nstest.Broker) { b.HAAddr = long(256) }, remark: "haServerAddr is 256 bytes long"},
		{name: "topic name of 128 bytes", broker: func(b *nstest.Broker) { b.Topics[long(128)] = 4 }, remark: "topic name is 128 bytes long"},
		{name: "stateVersion 2^62", broker: func(b *nstest.Broker) { b.Version.StateVersion = 1 << 62 }, remark: "stateVersion 4611686018427387904 outside"},
		{name: "negative stateVersion", broker: func(b *nstest.Broker) { b.Version.StateVersion = -1 }, remark: "stateVersion -1 outside"},
		{name: "heartbeat timeout 1e15 ms", ext: map[string]string{"heartbeatTimeoutMillis": "1000000000000000"},
			remark: "heartbeatTimeoutMillis 1000000000000000 outside [100, 600000]"},
		{name: "heartbeat timeout 0", ext: map[string]string{"heartbeatTimeoutMillis": "0"}, remark: "heartbeatTimeoutMillis 0 outside"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, nil)
			b := nstest.BrokerAMaster
			b.Topics = map[string]int32{"TopicA": 4, "TopicTest": 4}
			if tc.broker != nil {
				tc.broker(&b)
			}
			req := b.RegisterRequest()
			for k, v := range tc.ext {
				req.ExtFields[k] = v
			}
			resp := nstest.Invoke(t, s.client, req)
			mustRefuse(t, resp, tc.remark)
			if !strings.HasPrefix(resp.Remark, "register broker refused") {
				t.Fatalf("remark %q does not say the registration was refused", resp.Remark)
			}
			if len(s.ns.routes.AllTopicList().TopicList) != 0 || len(s.ns.routes.ClusterInfo().BrokerAddrTable) != 0 {
				t.Fatal("a refused registration changed the tables")
			}
			if !logged(s.hook, logrus.WarnLevel, "register broker refused") {
				t.Fatal("the refusal was not logged")
			}
			for _, e := range s.hook.AllEntries() {
				if line, _ := e.String(); len(line) > 4096 {
					t.Fatalf("a log line of %d bytes: peer-given strings are not truncated", len(line))
				}
			}
		})
	}
}

// TestUnregisterAndRegisterTopicBounds: an unregistration naming a broker
// past the bounds (which no registration can have stored) and a topic
// registration with a name past 127 bytes are refused, code 1.
func TestUnregisterAndRegisterTopicBounds(t *testing.T) {
	s := startServer(t, nil)
	ext := nstest.BrokerAMaster.Identity()
	ext["brokerName"] = strings.Repeat("n", 1<<20)
	mustRefuse(t, s.call(t, remoting.UNREGISTER_BROKER, ext, nil), "brokerName is 1048576 bytes long")
	mustRefuse(t, s.call(t, remoting.REGISTER_TOPIC_IN_NAMESRV, map[string]string{"topic": strings.Repeat("t", 128)}, []byte("{}")),
		"topic name is 128 bytes long")
}

// TestRegisterBrokerAcceptsTheLimits: the largest name and the bounds of
// the timeout range are accepted.
func TestRegisterBrokerAcceptsTheLimits(t *testing.T) {
	s := startServer(t, nil)
	b := nstest.BrokerAMaster
	topic := strings.Repeat("t", route.MaxTopicNameLength)
	b.Topics = map[string]int32{topic: 4, "TopicA": 4}
	b.Name = strings.Repeat("n", route.MaxNameLength)
	b.Version.StateVersion = route.MaxStateVersion
	req := b.RegisterRequest()
	req.ExtFields["heartbeatTimeoutMillis"] = "600000"
	nstest.MustCode(t, nstest.Invoke(t, s.client, req), remoting.SUCCESS)
	if !s.topicExists(topic) {
		t.Fatal("a 127-byte topic name was not routed")
	}
}

// compressedBomb is a compressed registration body whose one topic line has
// a name of nameLen bytes: a few KiB on the wire.
func compressedBomb(t *testing.T, nameLen int) []byte {
	t.Helper()
	var plain []byte
	item := func(b []byte) {
		plain = binary.BigEndian.AppendUint32(plain, uint32(len(b)))
		plain = append(plain, b...)
	}
	item([]byte(`{"counter":1,"stateVersion":0,"timestamp":1}`))
	plain = binary.BigEndian.AppendUint32(plain, 2)
	item(append(bytes.Repeat([]byte("a"), nameLen), " 8 8 6 SINGLE_TAG {}"...))
	item([]byte("TopicA 8 8 6 SINGLE_TAG {}"))
	item([]byte("[]"))
	plain = binary.BigEndian.AppendUint32(plain, 0)
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(plain); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestCompressedBodyAmplification: a ~60 KB compressed body naming a 60 MB
// topic was inflated, decoded and kept in the tables (here a 4 MiB name, a
// few KiB on the wire, to keep the test quick); now it is refused before
// the rest is inflated, and a real body still registers.
func TestCompressedBodyAmplification(t *testing.T) {
	s := startServer(t, nil)
	body := compressedBomb(t, 4<<20)
	if len(body) > 100<<10 {
		t.Fatalf("bomb of %d bytes: the test wants a small one", len(body))
	}
	req := nstest.BrokerAMaster.RequestWith(body)
	req.ExtFields["compressed"] = "true"
	mustRefuse(t, nstest.Invoke(t, s.client, req), "at most 65536")
	if topics := s.ns.routes.AllTopicList().TopicList; len(topics) != 0 {
		t.Fatalf("%d topics routed from a bomb", len(topics))
	}
	b := nstest.BrokerAMaster
	b.Topics = map[string]int32{}
	for i := range 4_000 {
		b.Topics[fmt.Sprintf("t%06d", i)] = 1
	}
	raw := mustCompressedBody(t, b)
	req = b.RequestWith(raw)
	resp := nstest.Invoke(t, s.client, req)
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("a real 4,000-topic compressed body (%d bytes) was refused: %d %q", len(raw), resp.Code, resp.Remark)
	}
}

// TestInflatedBytesChargedToRequestMemory: what a compressed body may
// inflate to counts against requestMemoryLimit while it is decoded, so a
// server without room answers SYSTEM_BUSY instead of inflating it; a plain
// body of the same topics, which needs no room, registers.
func TestInflatedBytesChargedToRequestMemory(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.RequestMemoryLimit = 512 << 10 })
	b := nstest.BrokerAMaster
	req := b.RequestWith(mustCompressedBody(t, b))
	req.ExtFields["compressed"] = "true"
	resp := nstest.Invoke(t, s.client, req)
	if resp.Code != remoting.SYSTEM_BUSY {
		t.Fatalf("compressed body with %d bytes of room for a 1 MiB inflation: code %d %q, want SYSTEM_BUSY", 512<<10, resp.Code, resp.Remark)
	}
	if s.topicExists("TopicA") {
		t.Fatal("the refused body was applied")
	}
	nstest.Register(t, s.client, b)
	// With room for one inflation, it registers, again and again: the
	// held bytes are given back each time.
	s2 := startServer(t, func(cfg *config.Config) { cfg.RequestMemoryLimit = 1536 << 10 })
	for i := range 3 {
		b.Version.Counter = int64(10 + i) // a new version: decoded again
		req := b.RequestWith(mustCompressedBody(t, b))
		req.ExtFields["compressed"] = "true"
		nstest.MustCode(t, nstest.Invoke(t, s2.client, req), remoting.SUCCESS)
	}
}

// TestHeartbeatTimeoutRangeFromTheConfig: the range comes from the keys.
func TestHeartbeatTimeoutRangeFromTheConfig(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) {
		cfg.MinBrokerHeartbeatTimeoutMillis, cfg.MaxBrokerHeartbeatTimeoutMillis = 1000, 2000
	})
	for timeout, want := range map[int64]int32{999: remoting.SYSTEM_ERROR, 1000: remoting.SUCCESS, 2000: remoting.SUCCESS, 2001: remoting.SYSTEM_ERROR} {
		req := nstest.BrokerAMaster.RegisterRequest()
		req.ExtFields["heartbeatTimeoutMillis"] = strconv.FormatInt(timeout, 10)
		if got := nstest.Invoke(t, s.client, req).Code; got != want {
			t.Errorf("timeout %d: code %d, want %d", timeout, got, want)
		}
	}
	// The keys are read at start: an update over the wire does not widen
	// the range of the running server.
	s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("maxBrokerHeartbeatTimeoutMillis=1000000000000000\n"))
	req := nstest.BrokerAMaster.RegisterRequest()
	req.ExtFields["heartbeatTimeoutMillis"] = "1000000000000000"
	mustRefuse(t, nstest.Invoke(t, s.client, req), "outside [1000, 2000]")
}
