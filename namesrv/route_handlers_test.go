package namesrv

import (
	"slices"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// startJavaFixture is RequestProcessorTest's setup (protocol.md 9.6): a
// server holding default-broker with topics unit-test0 and unit-test1.
func startJavaFixture(t *testing.T, configure func(cfg *config.Config)) *testServer {
	t.Helper()
	s := startServer(t, configure)
	nstest.Register(t, s.client, javaDefaultBroker)
	return s
}

func TestGetRouteInfoByTopic(t *testing.T) {
	s := startJavaFixture(t, nil)
	data := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "unit-test0", remoting.CurrentVersion))
	if len(data.BrokerDatas) != 1 || data.BrokerDatas[0].BrokerAddrs[1234] != javaDefaultBroker.Addr {
		t.Fatalf("route of unit-test0: %+v", data.BrokerDatas)
	}
	missing := nstest.RouteQuery(t, s.client, "test", remoting.CurrentVersion)
	nstest.MustCode(t, missing, remoting.TOPIC_NOT_EXIST)
	if want := "No topic route info in name server for the topic: test" + faqURL; missing.Remark != want {
		t.Fatalf("remark %q, want %q", missing.Remark, want)
	}
}

// TestRouteEncodingByVersion: standard JSON (quoted keys) for clients of
// version >= 401 or acceptStandardJsonOnly, fastjson's bare keys below.
func TestRouteEncodingByVersion(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	cases := []struct {
		name    string
		version int32
		ext     []string
		want    string
	}{
		{"old client", 317, nil, `"brokerAddrs":{0:"127.0.0.1:10911"}`},
		{"old client asking standard", 317, []string{"acceptStandardJsonOnly", "true"}, `"brokerAddrs":{"0":"127.0.0.1:10911"}`},
		{"new client", 479, nil, `"brokerAddrs":{"0":"127.0.0.1:10911"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := nstest.RouteQuery(t, s.client, "TopicA", tc.version, tc.ext...)
			nstest.MustCode(t, resp, remoting.SUCCESS)
			if !strings.Contains(string(resp.Body), tc.want) {
				t.Fatalf("body %s, want it to contain %s", resp.Body, tc.want)
			}
		})
	}
}

// TestNamesrvReadiness covers ClusterTestRequestProcessorTest's readiness
// cases (protocol.md 9.7); the case that sleeps until the wait is over is
// left out (it would be a timed test).
func TestNamesrvReadiness(t *testing.T) {
	cases := []struct {
		name       string
		needWait   bool
		waitSecond int
		wantCode   int32
		wantRemark string
	}{
		{"testNamesrvReady", true, 0, remoting.SUCCESS, ""},
		{"testNamesrvNotReady", true, 45, remoting.SYSTEM_ERROR, "name server not ready"},
		{"testNamesrvNoNeedWaitForService", false, 45, remoting.SUCCESS, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := startJavaFixture(t, func(cfg *config.Config) {
				cfg.NeedWaitForService, cfg.WaitSecondsForService = tc.needWait, tc.waitSecond
			})
			resp := nstest.RouteQuery(t, s.client, "unit-test0", remoting.CurrentVersion)
			if resp.Code != tc.wantCode || resp.Remark != tc.wantRemark {
				t.Fatalf("code %d remark %q, want %d %q", resp.Code, resp.Remark, tc.wantCode, tc.wantRemark)
			}
		})
	}
}

// TestZoneFilter covers ZoneRouteRPCHookTest and ZoneRouteRPCHookMoreTest
// (protocol.md 9.8, 9.9) over the wire.
func TestZoneFilter(t *testing.T) {
	zone1 := nstest.Broker{Cluster: "c", Name: "broker-z1", Addr: "127.0.0.1:11001", HAAddr: "127.0.0.1:11002", Zone: "zone1",
		Topics: map[string]int32{"ZoneTopic": 4, "Other": 1}, Version: route.DataVersion{Counter: 1, Timestamp: 1}}
	zone2 := nstest.Broker{Cluster: "c", Name: "broker-z2", Addr: "127.0.0.1:12001", HAAddr: "127.0.0.1:12002", Zone: "zone2",
		Topics: map[string]int32{"ZoneTopic": 4, "Other": 1}, Version: route.DataVersion{Counter: 1, Timestamp: 1}}
	s := startServer(t, nil)
	nstest.Register(t, s.client, zone1)
	nstest.Register(t, s.client, zone2)

	cases := []struct {
		name      string
		ext       []string
		want      []string
		wantPlain bool
	}{
		{"zone mode and zone1", []string{"__ZONE_MODE", "true", "__ZONE_NAME", "zone1"}, []string{"broker-z1"}, true},
		{"zone name in another case", []string{"__ZONE_MODE", "true", "__ZONE_NAME", "ZONE2"}, []string{"broker-z2"}, true},
		{"no zone mode", []string{"__ZONE_NAME", "zone1"}, []string{"broker-z1", "broker-z2"}, false},
		{"zone mode false", []string{"__ZONE_MODE", "false", "__ZONE_NAME", "zone1"}, []string{"broker-z1", "broker-z2"}, false},
		{"blank zone name", []string{"__ZONE_MODE", "true", "__ZONE_NAME", "  "}, []string{"broker-z1", "broker-z2"}, false},
		{"no zone name", []string{"__ZONE_MODE", "true"}, []string{"broker-z1", "broker-z2"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := nstest.RouteQuery(t, s.client, "ZoneTopic", 479, tc.ext...)
			brokers, queues := routeBrokerNames(nstest.DecodeRoute(t, resp))
			slices.Sort(brokers)
			slices.Sort(queues)
			if !slices.Equal(brokers, tc.want) || !slices.Equal(queues, tc.want) {
				t.Fatalf("broker datas %v queue datas %v, want %v for both", brokers, queues, tc.want)
			}
			// The zone filter re-encodes plain even for a 479 client (quirk Q3).
			if plain := strings.Contains(string(resp.Body), `"brokerAddrs":{0:`); plain != tc.wantPlain {
				t.Fatalf("plain encoding %v, want %v: %s", plain, tc.wantPlain, resp.Body)
			}
		})
	}
}

// TestOrderTopicConfInRoute: orderTopicConf is in routes only while
// orderMessageEnable is on (quirk Q27), and the switch is live.
func TestOrderTopicConfInRoute(t *testing.T) {
	s := startJavaFixture(t, nil)
	putKV(t, s, kvconfig.OrderTopicConfigNamespace, "unit-test0", "default-broker:8")
	cases := []struct {
		enable string
		want   string
	}{
		{"false", ""},
		{"true", "default-broker:8"},
		{"false", ""},
	}
	for _, tc := range cases {
		t.Run("orderMessageEnable="+tc.enable, func(t *testing.T) {
			nstest.MustCode(t, s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("orderMessageEnable="+tc.enable+"\n")), remoting.SUCCESS)
			for _, version := range []int32{317, 479} {
				if got := nstest.DecodeRoute(t, nstest.RouteQuery(t, s.client, "unit-test0", version)).OrderTopicConf; got != tc.want {
					t.Fatalf("version %d: orderTopicConf %q, want %q", version, got, tc.want)
				}
			}
			zoned := nstest.RouteQuery(t, s.client, "unit-test0", 479, "__ZONE_MODE", "true", "__ZONE_NAME", "z")
			if got := nstest.DecodeRoute(t, zoned).OrderTopicConf; got != tc.want {
				t.Fatalf("zone-filtered route: orderTopicConf %q, want %q", got, tc.want)
			}
		})
	}
}

func TestGetBrokerClusterInfo(t *testing.T) {
	s := startJavaFixture(t, nil)
	resp := s.call(t, remoting.GET_BROKER_CLUSTER_INFO, nil, nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	info, err := route.DecodeClusterInfo(resp.Body)
	if err != nil {
		t.Fatalf("decode %q: %v", resp.Body, err)
	}
	if got := info.ClusterAddrTable["default-cluster"]; len(got) != 1 || got[0] != "default-broker" {
		t.Fatalf("clusterAddrTable %v", info.ClusterAddrTable)
	}
	if addr := info.BrokerAddrTable["default-broker"].BrokerAddrs[1234]; addr != javaDefaultBroker.Addr {
		t.Fatalf("brokerAddrTable %v", info.BrokerAddrTable)
	}
	// Always plain, whatever the client version (quirk Q2).
	if !strings.Contains(string(resp.Body), `{1234:"127.0.0.1:10911"}`) {
		t.Fatalf("cluster info not in the plain encoding: %s", resp.Body)
	}
}

// TestTopicLists covers the list requests of RequestProcessorTest with their
// expected topics.
func TestTopicLists(t *testing.T) {
	s := startJavaFixture(t, nil)
	cases := []struct {
		name string
		code int32
		ext  map[string]string
		want []string
	}{
		{"testGetAllTopicListFromNameserver", remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, []string{"unit-test0", "unit-test1"}},
		{"testGetTopicsByCluster", remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": "default-cluster"}, []string{"unit-test0", "unit-test1"}},
		{"testGetTopicsByCluster unknown cluster", remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": "nope"}, nil},
		{"testGetSystemTopicListFromNs", remoting.GET_SYSTEM_TOPIC_LIST_FROM_NS, nil, []string{"default-broker", "default-cluster"}},
		{"testGetUnitTopicList", remoting.GET_UNIT_TOPIC_LIST, nil, nil},
		{"testGetHasUnitSubTopicList", remoting.GET_HAS_UNIT_SUB_TOPIC_LIST, nil, nil},
		{"testGetHasUnitSubUnUnitTopicList", remoting.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := s.call(t, tc.code, tc.ext, nil)
			nstest.MustCode(t, resp, remoting.SUCCESS)
			list, err := route.DecodeTopicList(resp.Body)
			if err != nil {
				t.Fatalf("decode %q: %v", resp.Body, err)
			}
			got := slices.Sorted(slices.Values(list.TopicList))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("topics %v, want %v", got, tc.want)
			}
		})
	}
}

func TestGetBrokerMemberGroup(t *testing.T) {
	s := startJavaFixture(t, nil)
	resp := s.call(t, remoting.GET_BROKER_MEMBER_GROUP, map[string]string{"clusterName": "any", "brokerName": "default-broker"}, nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if resp.Remark != "not set any response code" {
		t.Fatalf("remark %q, want Java's leftover remark (quirk Q5)", resp.Remark)
	}
	body, err := route.DecodeGetBrokerMemberGroupResponseBody(resp.Body)
	if err != nil {
		t.Fatalf("decode %q: %v", resp.Body, err)
	}
	group := body.BrokerMemberGroup
	if group.Cluster != "any" || group.BrokerName != "default-broker" || group.BrokerAddrs[1234] != javaDefaultBroker.Addr {
		t.Fatalf("member group %+v", group)
	}
}
