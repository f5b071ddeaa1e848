package namesrv

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// TestProcessRequest_RegisterBroker covers testProcessRequest_RegisterBroker
// and testProcessRequest_RegisterBrokerWithFilterServer (request version 100).
func TestProcessRequest_RegisterBroker(t *testing.T) {
	broker := nstest.Broker{Cluster: "cluster", Name: "broker", Addr: "10.10.1.1", ID: 2333,
		Topics: map[string]int32{"t1": 4, "t2": 4}, Version: route.DataVersion{Counter: 1, Timestamp: 1}}
	cases := []struct {
		name    string
		version int32
	}{
		{"testProcessRequest_RegisterBroker", remoting.CurrentVersion},
		{"testProcessRequest_RegisterBrokerWithFilterServer", 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, nil)
			req := broker.RegisterRequest()
			req.Version = tc.version
			resp := nstest.Invoke(t, s.client, req)
			nstest.MustCode(t, resp, remoting.SUCCESS)
			if resp.Remark != "" {
				t.Fatalf("remark %q, want none", resp.Remark)
			}
			got := s.ns.routes.ClusterInfo().BrokerAddrTable["broker"].BrokerAddrs
			if !maps.Equal(got, map[int64]string{2333: "10.10.1.1"}) {
				t.Fatalf("broker table addresses %v, want {2333: 10.10.1.1}", got)
			}
		})
	}
}

// TestProcessRequest_UnregisterBroker: Java asserts that the broker table is
// still non-empty right after the answer, which only says the worker had not
// run yet (a race); the outcome that matters is that the broker goes away.
func TestProcessRequest_UnregisterBroker(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	resp := s.call(t, remoting.UNREGISTER_BROKER, nstest.BrokerAMaster.Identity(), nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if resp.Remark != "" {
		t.Fatalf("remark %q, want none", resp.Remark)
	}
	eventually(t, "broker-a removed by the unregistration worker", func() error {
		if _, ok := s.ns.routes.ClusterInfo().BrokerAddrTable["broker-a"]; ok || s.topicExists("TopicA") {
			return errStillThere
		}
		return nil
	})
}

func TestQueryDataVersion(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	stored := nstest.BrokerAMaster.Version
	unknown := nstest.BrokerB
	cases := []struct {
		name        string
		broker      nstest.Broker
		body        []byte
		wantChanged string
		wantBody    bool
	}{
		// testQueryDataVersion: unknown broker, no body.
		{"unknown broker without body", unknown, nil, "true", false},
		{"same version", nstest.BrokerAMaster, route.EncodeDataVersion(nil, stored), "false", true},
		{"other version", nstest.BrokerAMaster, route.EncodeDataVersion(nil, route.DataVersion{Counter: 2, Timestamp: stored.Timestamp}), "true", true},
		{"known broker without body", nstest.BrokerAMaster, nil, "true", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := s.call(t, remoting.QUERY_DATA_VERSION, tc.broker.Identity(), tc.body)
			nstest.MustCode(t, resp, remoting.SUCCESS)
			if resp.ExtFields["changed"] != tc.wantChanged {
				t.Fatalf("changed %q, want %s", resp.ExtFields["changed"], tc.wantChanged)
			}
			if !tc.wantBody {
				if len(resp.Body) != 0 {
					t.Fatalf("body %q for an unknown broker, want none", resp.Body)
				}
				return
			}
			if got, err := route.DecodeDataVersion(resp.Body); err != nil || got != stored {
				t.Fatalf("body %q (%v), want the stored version %+v", resp.Body, err, stored)
			}
		})
	}
}

func TestBrokerHeartBeat(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	ext := map[string]string{"clusterName": nstest.BrokerAMaster.Cluster, "brokerAddr": nstest.BrokerAMaster.Addr, "brokerName": nstest.BrokerAMaster.Name}
	nstest.MustCode(t, s.call(t, remoting.BROKER_HEARTBEAT, ext, nil), remoting.SUCCESS)
	unknown := map[string]string{"clusterName": "c", "brokerAddr": "10.0.0.9:1", "brokerName": "x"}
	nstest.MustCode(t, s.call(t, remoting.BROKER_HEARTBEAT, unknown, nil), remoting.SUCCESS)
}

// TestBrokerHeartbeatOnewayNotAnswered: Java brokers send BROKER_HEARTBEAT
// one-way; the first frame back on the connection must be the answer to the
// request sent after it.
func TestBrokerHeartbeatOnewayNotAnswered(t *testing.T) {
	s := startServer(t, nil)
	conn := dialRaw(t, s.addr())
	heartbeat := remoting.NewRequest(remoting.BROKER_HEARTBEAT,
		map[string]string{"clusterName": "c", "brokerAddr": "10.0.0.9:1", "brokerName": "x"}, nil)
	heartbeat.MarkOneway()
	heartbeat.Opaque = 1
	conn.send(heartbeat)
	resp := conn.invoke(remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil), 2)
	if resp.Opaque != 2 {
		t.Fatalf("first frame back has opaque %d code %d: the one-way heartbeat was answered", resp.Opaque, resp.Code)
	}
}

func TestWritePerm(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	header := map[string]string{"brokerName": "broker-a"}
	steps := []struct {
		name     string
		code     int32
		countKey string
		count    string
		perm     int32
	}{
		{"testWipeWritePermOfBroker", remoting.WIPE_WRITE_PERM_OF_BROKER, "wipeTopicCount", "2", route.PermRead},
		{"testAddWritePermOfBroker", remoting.ADD_WRITE_PERM_OF_BROKER, "addTopicCount", "2", route.PermRead | route.PermWrite},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			resp := s.call(t, step.code, header, nil)
			nstest.MustCode(t, resp, remoting.SUCCESS)
			if resp.ExtFields[step.countKey] != step.count {
				t.Fatalf("ext %v, want %s=%s", resp.ExtFields, step.countKey, step.count)
			}
			if perm := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicTest", 479)).QueueDatas[0].Perm; perm != step.perm {
				t.Fatalf("perm %d, want %d", perm, step.perm)
			}
			unknown := s.call(t, step.code, map[string]string{"brokerName": "nobody"}, nil)
			if unknown.Code != remoting.SUCCESS || unknown.ExtFields[step.countKey] != "0" {
				t.Fatalf("unknown broker: code %d ext %v, want 0 and count 0", unknown.Code, unknown.ExtFields)
			}
		})
	}
}

func TestDeleteTopicInNamesrv(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	nstest.MustCode(t, s.call(t, remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": "TopicA", "clusterName": "unknown"}, nil), remoting.SUCCESS)
	if !s.topicExists("TopicA") {
		t.Fatal("a delete for an unknown cluster removed the topic")
	}
	nstest.MustCode(t, s.call(t, remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": "TopicA"}, nil), remoting.SUCCESS)
	if s.topicExists("TopicA") || !s.topicExists("TopicTest") {
		t.Fatalf("after deleting TopicA: TopicA exists %v, TopicTest exists %v", s.topicExists("TopicA"), s.topicExists("TopicTest"))
	}
}

func TestRegisterTopicInNamesrv(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	routeBody := func(brokerName string) []byte {
		return route.EncodeTopicRouteData(nil, &route.TopicRouteData{QueueDatas: []route.QueueData{
			{BrokerName: brokerName, ReadQueueNums: 2, WriteQueueNums: 2, Perm: route.DefaultPerm}}}, false)
	}
	cases := []struct {
		name      string
		topic     string
		body      []byte
		wantCode  int32
		wantRoute bool
	}{
		{"known broker", "NewTopic", routeBody("broker-a"), remoting.SUCCESS, true},
		{"unknown broker answers 0 and adds nothing", "Orphan", routeBody("nobody"), remoting.SUCCESS, false},
		{"no body", "Empty", nil, remoting.SUCCESS, false},
		{"malformed body", "Bad", []byte("{not json"), remoting.SYSTEM_ERROR, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nstest.MustCode(t, s.call(t, remoting.REGISTER_TOPIC_IN_NAMESRV, map[string]string{"topic": tc.topic}, tc.body), tc.wantCode)
			if got := s.topicExists(tc.topic); got != tc.wantRoute {
				t.Fatalf("topic %s routed %v, want %v", tc.topic, got, tc.wantRoute)
			}
		})
	}
}

// TestRegisterBrokerRefusals: the refusals answer code 1 with an empty
// extFields object, as the recorded Java answers show (exchanges 008, 088).
func TestRegisterBrokerRefusals(t *testing.T) {
	oneTopic := nstest.BrokerB
	oneTopic.Topics = map[string]int32{"OnlyOne": 1}
	cases := []struct {
		name   string
		req    func() *remoting.Command
		remark string
	}{
		{"crc mismatch", func() *remoting.Command {
			req := nstest.BrokerAMaster.RegisterRequest()
			crc, _ := strconv.ParseInt(req.ExtFields["bodyCrc32"], 10, 64)
			req.ExtFields["bodyCrc32"] = strconv.FormatInt(crc^1, 10)
			return req
		}, "crc32 not match"},
		{"crc mismatch in a large body, whose CRC the server takes as it arrives", func() *remoting.Command {
			req := largeBroker().RegisterRequest()
			crc, _ := strconv.ParseInt(req.ExtFields["bodyCrc32"], 10, 64)
			req.ExtFields["bodyCrc32"] = strconv.FormatInt(crc^1, 10)
			return req
		}, "crc32 not match"},
		{"first registration with one topic", oneTopic.RegisterRequest, "register broker failed"},
		{"undecodable body", func() *remoting.Command { return nstest.BrokerAMaster.RequestWith([]byte("{broken")) }, decodeFailedRemark},
		{"negative version", func() *remoting.Command {
			req := nstest.BrokerAMaster.RegisterRequest()
			req.Version = -1
			return req
		}, "invalid request version -1"},
		{"missing brokerId", func() *remoting.Command {
			req := nstest.BrokerAMaster.RegisterRequest()
			delete(req.ExtFields, "brokerId")
			return req
		}, "brokerId"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, nil)
			resp := nstest.Invoke(t, s.client, tc.req())
			if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, tc.remark) {
				t.Fatalf("code %d remark %q, want 1 %q", resp.Code, resp.Remark, tc.remark)
			}
			if resp.ExtFields == nil || len(resp.ExtFields) != 0 {
				t.Fatalf("extFields %v, want present and empty", resp.ExtFields)
			}
			if topics := s.ns.routes.AllTopicList().TopicList; len(topics) != 0 {
				t.Fatalf("a refused registration routed topics %v", topics)
			}
		})
	}
}

// TestRegisterBrokerBodyFormats: every body layout a broker may send routes
// the same topics (protocol.md 2.4 step 2).
func TestRegisterBrokerBodyFormats(t *testing.T) {
	b := nstest.BrokerAMaster
	cases := []struct {
		name string
		req  func(t *testing.T) *remoting.Command
	}{
		{"json", func(*testing.T) *remoting.Command { return b.RegisterRequest() }},
		{"json, version 100", func(*testing.T) *remoting.Command {
			req := b.RegisterRequest()
			req.Version = 100
			return req
		}},
		{"compressed=true", func(t *testing.T) *remoting.Command {
			req := b.RequestWith(mustCompressedBody(t, b))
			req.ExtFields["compressed"] = "true"
			return req
		}},
		// Quirk Q7: Java brokers send compressed=false with a zlib body.
		{"zlib body with compressed=false", func(t *testing.T) *remoting.Command { return b.RequestWith(mustCompressedBody(t, b)) }},
		{"old version: bare TopicConfigSerializeWrapper", func(*testing.T) *remoting.Command {
			w := b.Wrapper()
			req := b.RequestWith(route.EncodeTopicConfigSerializeWrapper(nil, &w))
			req.Version = route.VersionV3_0_11 - 1
			return req
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, nil)
			nstest.MustCode(t, nstest.Invoke(t, s.client, tc.req(t)), remoting.SUCCESS)
			for topic, queues := range b.Topics {
				data := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, topic, 479))
				if len(data.QueueDatas) != 1 || data.QueueDatas[0].WriteQueueNums != queues || data.BrokerDatas[0].BrokerAddrs[0] != b.Addr {
					t.Fatalf("route of %s: %+v", topic, data)
				}
			}
		})
	}
}

// TestRegisterBrokerAnswerAddresses: a master's answer has an empty
// extFields object; a slave's carries its live master's addresses.
func TestRegisterBrokerAnswerAddresses(t *testing.T) {
	s := startServer(t, nil)
	master := nstest.Register(t, s.client, nstest.BrokerAMaster)
	if master.ExtFields == nil || len(master.ExtFields) != 0 {
		t.Fatalf("master answer ext %v, want {}", master.ExtFields)
	}
	slave := nstest.Register(t, s.client, nstest.BrokerASlave)
	want := map[string]string{"masterAddr": nstest.BrokerAMaster.Addr, "haServerAddr": nstest.BrokerAMaster.HAAddr}
	if !maps.Equal(slave.ExtFields, want) {
		t.Fatalf("slave answer ext %v, want %v", slave.ExtFields, want)
	}
}

// TestRegisterBrokerReturnsOrderTopicConfig: the ORDER_TOPIC_CONFIG namespace
// goes back to a registering broker as a KVTable body (protocol.md 2.4 step 6).
func TestRegisterBrokerReturnsOrderTopicConfig(t *testing.T) {
	cases := []struct {
		name      string
		returnCfg bool
		putOrder  bool
		wantBody  bool
	}{
		{"namespace exists", true, true, true},
		{"returnOrderTopicConfigToBroker=false", false, true, false},
		{"no namespace", true, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startServer(t, func(cfg *config.Config) { cfg.ReturnOrderTopicConfigToBroker = tc.returnCfg })
			if tc.putOrder {
				putKV(t, s, kvconfig.OrderTopicConfigNamespace, "TopicA", "broker-a:4")
			}
			resp := nstest.Register(t, s.client, nstest.BrokerAMaster)
			if !tc.wantBody {
				if len(resp.Body) != 0 {
					t.Fatalf("body %q, want none", resp.Body)
				}
				return
			}
			table, err := route.DecodeKVTable(resp.Body)
			if err != nil || !maps.Equal(table.Table, map[string]string{"TopicA": "broker-a:4"}) {
				t.Fatalf("body %q (%v), want the order config table", resp.Body, err)
			}
		})
	}
}

// TestRegisterBrokerUnchangedFastPath: an identical re-registration skips the
// topic table, but never the work a change since made necessary.
func TestRegisterBrokerUnchangedFastPath(t *testing.T) {
	s := startServer(t, nil)
	s.logger.SetLevel(logrus.DebugLevel)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	if n := countLogged(s.hook, "broker re-registered, unchanged"); n != 1 {
		t.Fatalf("%d fast-path log lines after an identical re-registration, want 1", n)
	}
	if !logged(s.hook, logrus.DebugLevel, "broker re-registered, unchanged") {
		t.Fatal("the fast-path line is not at debug level")
	}
	if data := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicA", 479)); data.QueueDatas[0].WriteQueueNums != 4 {
		t.Fatalf("route after the fast path: %+v", data)
	}

	nstest.MustCode(t, s.call(t, remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": "TopicA"}, nil), remoting.SUCCESS)
	if s.topicExists("TopicA") {
		t.Fatal("TopicA still routed after DELETE_TOPIC_IN_NAMESRV")
	}
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	if !s.topicExists("TopicA") {
		t.Fatal("the same body registered after DELETE_TOPIC_IN_NAMESRV did not bring TopicA back")
	}
	if n := countLogged(s.hook, "broker registered"); n != 2 {
		t.Fatalf("%d full registrations logged, want 2 (the first and the one after the delete)", n)
	}
}

// TestRegisterBrokerNewVersionSameTableSkipsDecoding: a new DataVersion with
// the topic table last applied is not decoded, stores the new version, and
// is decoded again once the broker's queue data changed in between.
func TestRegisterBrokerNewVersionSameTableSkipsDecoding(t *testing.T) {
	s := startServer(t, nil)
	s.logger.SetLevel(logrus.DebugLevel)
	// a broker's mapping data version moves only with its static mappings
	registerKeepingMappingVersion := func(b nstest.Broker) {
		t.Helper()
		body := route.EncodeRegisterBrokerBody(nil, &route.RegisterBrokerBody{
			TopicConfigSerializeWrapper: b.Wrapper(), FilterServerList: []string{}}, nstest.BrokerAMaster.Version)
		nstest.MustCode(t, nstest.Invoke(t, s.client, b.RequestWith(body)), remoting.SUCCESS)
	}
	registerKeepingMappingVersion(nstest.BrokerAMaster)
	next := nstest.BrokerAMaster
	next.Version.Counter++
	registerKeepingMappingVersion(next)
	if n := countLogged(s.hook, "broker re-registered, unchanged"); n != 1 {
		t.Fatalf("%d fast-path log lines after a new version of the same table, want 1", n)
	}
	query := remoting.NewRequest(remoting.QUERY_DATA_VERSION, map[string]string{"brokerName": next.Name,
		"brokerAddr": next.Addr, "clusterName": next.Cluster, "brokerId": "0"}, route.EncodeDataVersion(nil, next.Version))
	if resp := nstest.Invoke(t, s.client, query); resp.ExtFields["changed"] != "false" {
		t.Fatalf("QUERY_DATA_VERSION after the skip: %+v, want the new version stored", resp.ExtFields)
	}

	nstest.MustCode(t, s.call(t, remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": next.Name}, nil), remoting.SUCCESS)
	next.Version.Counter++
	registerKeepingMappingVersion(next)
	if n := countLogged(s.hook, "broker registered"); n != 2 {
		t.Fatalf("%d full registrations logged, want 2 (the first and the one after the perm change)", n)
	}
	if data := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "TopicA", 479)); data.QueueDatas[0].Perm&route.PermWrite == 0 {
		t.Fatalf("write perm not restored by the new version: %+v", data.QueueDatas[0])
	}
}

// largeBroker is broker-a with a body of more than 64 KiB, which the server
// assembles as it arrives and whose CRC it takes on the way
// (remoting.Command.BodyCRC32).
func largeBroker() nstest.Broker { return brokerWithTopics("LargeTopic-%04d", 2000) }

// brokerWithTopics is broker-a's master with count topics of 8 queues,
// named by the format (which takes the topic's number).
func brokerWithTopics(format string, count int) nstest.Broker {
	b := nstest.BrokerAMaster
	b.Topics = make(map[string]int32, count)
	for i := range count {
		b.Topics[fmt.Sprintf(format, i)] = 8
	}
	return b
}

// TestRegisterBrokerLargeBodyPaths: a large body goes through the same three
// paths as a small one, with the CRC the server took: applied in full, the
// same body again (unchanged), and a new data version of the same table,
// whose fingerprint is derived from that CRC.
func TestRegisterBrokerLargeBodyPaths(t *testing.T) {
	s := startServer(t, nil)
	b := largeBroker()
	if n := len(b.Body()); n < 64<<10 {
		t.Fatalf("body of %d bytes is not a large frame", n)
	}
	nstest.MustCode(t, nstest.Register(t, s.client, b), remoting.SUCCESS)
	nstest.MustCode(t, nstest.Register(t, s.client, b), remoting.SUCCESS)
	next := b
	next.Version.Counter++
	nstest.MustCode(t, nstest.Register(t, s.client, next), remoting.SUCCESS)
	changed, stored := s.ns.routes.QueryDataVersion(b.Cluster, b.Addr, &next.Version, time.Now())
	if changed || stored == nil || *stored != next.Version {
		t.Fatalf("data version after the new version: changed=%v stored=%+v, want %+v", changed, stored, next.Version)
	}
	if !s.topicExists("LargeTopic-1999") {
		t.Fatal("a topic of the large body is not routed")
	}
	// The table fingerprint of the new version matched the one recorded with
	// the full apply: the registration skipped the table.
	if !s.ns.routes.IsUnchangedTopicTable(b.Cluster, b.Addr, b.ID, mustTableFingerprint(t, next.Body())) {
		t.Fatal("the fingerprint recorded for the large body does not match its own table")
	}
}

func mustTableFingerprint(t *testing.T, body []byte) uint64 {
	t.Helper()
	_, fp, err := route.RegisterBrokerTableFingerprint(body)
	if err != nil || fp == 0 {
		t.Fatalf("fingerprint %x, %v", fp, err)
	}
	return fp
}

// TestUnchangedRegistrationAnsweredOnTheLoopAlike: a re-registration of the
// same body, and of a new DataVersion over the same table, is answered on
// the event loop (registrations_on_event_loop_total), with the answer the
// worker gave the first time: a slave's master addresses and the order
// topic config. A changed table still goes to the worker.
func TestUnchangedRegistrationAnsweredOnTheLoopAlike(t *testing.T) {
	s := startServer(t, nil)
	putKV(t, s, kvconfig.OrderTopicConfigNamespace, "TopicA", "broker-a:4")
	onLoop := func() float64 { return counterValue(t, s, "rocketmq_namesrv_registrations_on_event_loop_total") }
	brokers := []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerASlave}
	var first []*remoting.Command
	for _, b := range brokers {
		first = append(first, nstest.Register(t, s.client, b))
	}
	if n := onLoop(); n != 0 {
		t.Fatalf("%v first registrations answered on the loop, want 0: they apply a table", n)
	}
	for i, b := range brokers {
		again := nstest.Register(t, s.client, b)
		if again.Code != first[i].Code || again.Remark != first[i].Remark || !maps.Equal(again.ExtFields, first[i].ExtFields) ||
			string(again.Body) != string(first[i].Body) {
			t.Fatalf("%s: loop answer %+v, want the worker's %+v", b.Addr, *again, *first[i])
		}
	}
	if len(first[1].ExtFields["masterAddr"]) == 0 || len(first[0].Body) == 0 {
		t.Fatalf("the answers compared carry no master address or order config: %v, %q", first[1].ExtFields, first[0].Body)
	}
	if n := onLoop(); n != 2 {
		t.Fatalf("%v unchanged re-registrations answered on the loop, want 2", n)
	}
	changed := nstest.BrokerAMaster
	changed.Topics = map[string]int32{nstest.SharedTopic: 8, "TopicA": 4, "TopicNew": 2}
	changed.Version.Counter++
	nstest.Register(t, s.client, changed)
	if n := onLoop(); n != 2 || !s.topicExists("TopicNew") {
		t.Fatalf("a changed table: %v answered on the loop (want 2), TopicNew routed: %v", n, s.topicExists("TopicNew"))
	}
}

// TestQuickRegistrationLeavesRefusalsToTheWorker: an unchanged body that the
// worker refuses (a wrong bodyCrc32, a heartbeat timeout out of range) is
// not answered on the loop; the worker refuses it and counts it once.
func TestQuickRegistrationLeavesRefusalsToTheWorker(t *testing.T) {
	s := startServer(t, nil)
	b := nstest.BrokerAMaster
	nstest.Register(t, s.client, b)
	badCRC := b.RegisterRequest()
	sum, _ := strconv.ParseInt(badCRC.ExtFields["bodyCrc32"], 10, 64)
	badCRC.ExtFields["bodyCrc32"] = strconv.FormatInt(sum^1, 10)
	mustRefuse(t, nstest.Invoke(t, s.client, badCRC), "crc32 not match")
	badTimeout := b.RegisterRequest()
	badTimeout.ExtFields["heartbeatTimeoutMillis"] = "0"
	mustRefuse(t, nstest.Invoke(t, s.client, badTimeout), "register broker refused")
	if n := counterValue(t, s, "rocketmq_namesrv_registrations_on_event_loop_total"); n != 0 {
		t.Fatalf("%v refused registrations answered on the loop", n)
	}
	if n := countLogged(s.hook, "register broker: crc32 not match"); n != 1 {
		t.Fatalf("the CRC refusal logged %d times, want once", n)
	}
}

// TestQuickRegistrationReadsOnlyTheBodysHead: a body whose DataVersion lies
// past the first quickVersionWithin bytes (behind a long filter-server list)
// is never answered on the loop, yet registers as always.
func TestQuickRegistrationReadsOnlyTheBodysHead(t *testing.T) {
	s := startServer(t, nil)
	b := nstest.BrokerAMaster
	filters := make([]string, 0, 1000)
	for i := range cap(filters) {
		filters = append(filters, fmt.Sprintf("10.0.%d.%d:40000", i/250, i%250))
	}
	body := route.EncodeRegisterBrokerBody(nil, &route.RegisterBrokerBody{TopicConfigSerializeWrapper: b.Wrapper(),
		FilterServerList: filters}, b.Version)
	if at := strings.Index(string(body), `"dataVersion"`); at < quickVersionWithin {
		t.Fatalf("the version is at byte %d, within the %d the loop reads", at, quickVersionWithin)
	}
	for range 3 {
		nstest.MustCode(t, nstest.Invoke(t, s.client, b.RequestWith(body)), remoting.SUCCESS)
	}
	if n := counterValue(t, s, "rocketmq_namesrv_registrations_on_event_loop_total"); n != 0 {
		t.Fatalf("%v registrations with a far version answered on the loop, want 0", n)
	}
	// Nor is a compressed body, which is always decoded.
	compressed := nstest.BrokerB
	for range 2 {
		nstest.MustCode(t, nstest.Invoke(t, s.client, compressed.RequestWith(mustCompressedBody(t, compressed))), remoting.SUCCESS)
	}
	if n := counterValue(t, s, "rocketmq_namesrv_registrations_on_event_loop_total"); n != 0 {
		t.Fatalf("%v compressed registrations answered on the loop, want 0", n)
	}
	if got := counterSum(t, s, "rocketmq_namesrv_registrations_total", "kind", metrics.RegistrationUnchanged); got != 2 {
		t.Fatalf("%v unchanged registrations on the worker, want 2", got)
	}
}

// TestRegistrationsOnTheLoopAndThePoolInterleave: brokers on connections of
// their own re-register at once, each round a changed table (the pool), the
// same body (the loop) or a new DataVersion over the same table (the loop),
// so quick registrations on both event loops meet each other and the pool's
// at the writer lock. Every registration succeeds, and each broker ends with
// what it sent last: its last version stored, its last topic routed.
func TestRegistrationsOnTheLoopAndThePoolInterleave(t *testing.T) {
	s := startServer(t, nil)
	const brokers, rounds = 8, 24
	mapping := route.DataVersion{Counter: 1, Timestamp: 1700000000000} // moves only with static mappings
	finals := make([]nstest.Broker, brokers)
	errs := make(chan error, brokers)
	var wg sync.WaitGroup
	for i := range brokers {
		b := nstest.Broker{Cluster: "InterleaveCluster", Name: fmt.Sprintf("interleave-%d", i),
			Addr: fmt.Sprintf("127.0.0.1:%d", 21000+i), HAAddr: fmt.Sprintf("127.0.0.1:%d", 22000+i),
			Topics: map[string]int32{nstest.SharedTopic: 4}, Version: mapping}
		client := nstest.NewClient(t, s.addr())
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				switch r % 3 {
				case 0:
					b.Topics[fmt.Sprintf("Own-%d-%d", i, r)] = 2
					b.Version.Counter++
				case 2:
					b.Version.Counter++
				}
				body := route.EncodeRegisterBrokerBody(nil, &route.RegisterBrokerBody{
					TopicConfigSerializeWrapper: b.Wrapper(), FilterServerList: []string{}}, mapping)
				resp, err := client.Invoke(nstest.Context(t), b.RequestWith(body))
				if err == nil && resp.Code != remoting.SUCCESS {
					err = fmt.Errorf("code %d %q", resp.Code, resp.Remark)
				}
				if err != nil {
					errs <- fmt.Errorf("%s round %d: %w", b.Name, r, err)
					return
				}
			}
			finals[i] = b
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, b := range finals {
		resp := s.call(t, remoting.QUERY_DATA_VERSION, b.Identity(), route.EncodeDataVersion(nil, b.Version))
		if resp.ExtFields["changed"] != "false" {
			t.Errorf("%s: its last version %+v is not the one stored", b.Name, b.Version)
		}
		last := fmt.Sprintf("Own-%d-%d", i, (rounds-1)/3*3)
		if data := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, last, 479)); len(data.QueueDatas) != 1 ||
			data.QueueDatas[0].BrokerName != b.Name {
			t.Errorf("%s: its last topic %s routes to %+v", b.Name, last, data.QueueDatas)
		}
	}
	onLoop := counterValue(t, s, "rocketmq_namesrv_registrations_on_event_loop_total")
	if onLoop == 0 || onLoop > brokers*rounds*2/3 {
		t.Errorf("%v registrations answered on the event loop, want some of the %d unchanged ones", onLoop, brokers*rounds*2/3)
	}
	t.Logf("%v of %d unchanged registrations answered on the event loop", onLoop, brokers*rounds*2/3)
	if n := counterSum(t, s, "rocketmq_namesrv_registrations_total", "result", metrics.ResultSuccess); n != brokers*rounds {
		t.Errorf("%v successful registrations counted, want %d", n, brokers*rounds)
	}
}
