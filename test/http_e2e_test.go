package test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// sidePort is a NameServer with its HTTP side port on a free loopback port.
type sidePort struct {
	*process
	base string // http://127.0.0.1:PORT
}

func startNamesrvHTTP(t *testing.T, extra ...string) *sidePort {
	t.Helper()
	port := freePort(t)
	p := startNamesrv(t, append([]string{"-httpListenPort", strconv.Itoa(port)}, extra...)...)
	s := &sidePort{process: p, base: "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
	s.waitAttached(t)
	return s
}

// waitAttached waits until the side port serves the started server:
// /healthz answers as soon as the port listens; the views that need the
// started server (its tables, its metrics) answer 503 until it is attached,
// which comes after the remoting port listens and which a starved machine
// can make last.
func (s *sidePort) waitAttached(t *testing.T) {
	t.Helper()
	eventually(t, 30*time.Second, "the HTTP side port answers with the server attached", func() error {
		for _, path := range []string{"/healthz", "/metrics", "/rocketmq/nsaddr"} {
			status, body, err := s.get(path)
			if err != nil {
				return err
			}
			if status == http.StatusServiceUnavailable && path != "/healthz" {
				return fmt.Errorf("%s: 503 %s", path, body)
			}
		}
		return nil
	})
}

var httpClient = &http.Client{Timeout: 10 * time.Second}

// get returns the status and body of GET path.
func (s *sidePort) get(path string) (int, []byte, error) {
	resp, err := httpClient.Get(s.base + path)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// getJSON decodes the JSON answer of path, checking status and content type.
func (s *sidePort) getJSON(t *testing.T, path string, wantStatus int, into any) {
	t.Helper()
	resp, err := httpClient.Get(s.base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != wantStatus || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: status %d type %q, want %d application/json: %s", path, resp.StatusCode,
			resp.Header.Get("Content-Type"), wantStatus, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, body)
	}
}

// scrape parses /metrics with the Prometheus text parser.
func (s *sidePort) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	status, body, err := s.get("/metrics")
	if err != nil || status != http.StatusOK {
		t.Fatalf("GET /metrics: status %d err %v", status, err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return families
}

// value is the value of the series of name whose labels include want (a
// counter, gauge, or a histogram's count); -1 when there is none.
func value(families map[string]*dto.MetricFamily, name string, want ...string) float64 {
	fam, ok := families[name]
	if !ok {
		return -1
	}
	total, found := 0.0, false
	for _, m := range fam.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for i := 0; i+1 < len(want); i += 2 {
			match = match && labels[want[i]] == want[i+1]
		}
		if !match {
			continue
		}
		found = true
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	if !found {
		return 0
	}
	return total
}

// TestHTTPMetricsMoveWithRequests: /metrics parses with the Prometheus text
// parser, and its counters and gauges move with what the test sends over
// the wire: registrations by kind, route queries by result, KV writes,
// heartbeats, connection-close unregistrations, table gauges.
func TestHTTPMetricsMoveWithRequests(t *testing.T) {
	ns := startNamesrvHTTP(t)
	// waitListening's probe connection is counted by its event loop, which
	// may come after the side port answers: wait for it, or it lands in the
	// delta below (seen 2 runs in 25).
	var before map[string]*dto.MetricFamily
	eventually(t, 5*time.Second, "the start's probe connection counted", func() error {
		if status, _, err := ns.get("/metrics"); err != nil || status != http.StatusOK {
			return fmt.Errorf("GET /metrics: %d %v", status, err) // 503 until the KV store is loaded
		}
		before = ns.scrape(t)
		if got := value(before, "rocketmq_namesrv_connections_opened_total"); got < 1 {
			return fmt.Errorf("connections opened %v, want the probe's 1", got)
		}
		return nil
	})
	for _, name := range []string{"rocketmq_namesrv_build_info", "rocketmq_namesrv_start_time_seconds", "go_goroutines",
		"process_resident_memory_bytes", "rocketmq_namesrv_pool_queue_capacity", "rocketmq_namesrv_request_memory_limit_bytes"} {
		if value(before, name) <= 0 {
			t.Errorf("%s missing or zero before any request", name)
		}
	}

	broker := nstest.NewClient(t, ns.Addr)
	for _, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerASlave, nstest.BrokerB} {
		nstest.MustCode(t, nstest.Register(t, broker, b), remoting.SUCCESS)
	}
	nstest.MustCode(t, nstest.Register(t, broker, nstest.BrokerB), remoting.SUCCESS) // the same body again
	nstest.MustCode(t, nstest.Invoke(t, broker, remoting.NewRequest(remoting.BROKER_HEARTBEAT, nstest.BrokerB.Identity(), nil)), remoting.SUCCESS)
	client := nstest.NewClient(t, ns.Addr)
	const found, missing = 25, 7
	for range found {
		nstest.MustCode(t, nstest.RouteQuery(t, client, nstest.SharedTopic, 479), remoting.SUCCESS)
	}
	for range missing {
		nstest.MustCode(t, nstest.RouteQuery(t, client, "NoSuchTopic", 479), remoting.TOPIC_NOT_EXIST)
	}
	nstest.MustCode(t, nstest.Invoke(t, client, kvRequest(remoting.PUT_KV_CONFIG, "ns", "k", "v")), remoting.SUCCESS)

	after := ns.scrape(t)
	route := func(result string) float64 {
		return value(after, "rocketmq_namesrv_requests_total", "code", "GET_ROUTEINFO_BY_TOPIC", "result", result)
	}
	checks := []struct {
		what      string
		got, want float64
	}{
		{"route queries answered", route("success"), found},
		{"route queries of a missing topic", route("topic_not_exist"), missing},
		{"route query latency observations", value(after, "rocketmq_namesrv_request_duration_seconds", "code", "GET_ROUTEINFO_BY_TOPIC"), found + missing},
		{"full-table registrations", value(after, "rocketmq_namesrv_registrations_total", "kind", "full_table", "result", "success"), 3},
		{"unchanged registrations", value(after, "rocketmq_namesrv_registrations_total", "kind", "unchanged", "result", "success"), 1},
		{"registrations answered on the event loop (the unchanged one)", value(after, "rocketmq_namesrv_registrations_on_event_loop_total"), 1},
		{"registration bodies observed", value(after, "rocketmq_namesrv_registration_body_bytes"), 4},
		{"heartbeats", value(after, "rocketmq_namesrv_heartbeats_total"), 1},
		{"KV puts", value(after, "rocketmq_namesrv_kv_writes_total", "op", "put"), 1},
		{"live brokers", value(after, "rocketmq_namesrv_live_brokers"), 3},
		{"clusters", value(after, "rocketmq_namesrv_clusters"), 1},
		{"topics", value(after, "rocketmq_namesrv_topics"), 3},
		{"queue datas", value(after, "rocketmq_namesrv_queue_datas"), 4},
		{"broker connections open", value(after, "rocketmq_namesrv_connections_open", "kind", "broker"), 1},
		{"client connections open", value(after, "rocketmq_namesrv_connections_open", "kind", "client"), 1},
		{"connections open over the event loops", value(after, "rocketmq_namesrv_event_loop_connections"), 2},
		{"connections opened", value(after, "rocketmq_namesrv_connections_opened_total") - value(before, "rocketmq_namesrv_connections_opened_total"), 2},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if value(after, "rocketmq_namesrv_response_bytes_total") <= value(before, "rocketmq_namesrv_response_bytes_total") {
		t.Error("response bytes did not grow")
	}

	broker.Close()
	eventually(t, 5*time.Second, "the broker connection's close counted", func() error {
		m := ns.scrape(t)
		if got := value(m, "rocketmq_namesrv_unregistrations_total", "cause", "connection_close"); got != 3 {
			return fmt.Errorf("connection_close unregistrations %v, want 3", got)
		}
		if got := value(m, "rocketmq_namesrv_live_brokers"); got != 0 {
			return fmt.Errorf("live brokers %v, want 0", got)
		}
		return nil
	})
}

// TestHTTPReadyzWaitWindowAndGracefulStop: /readyz is 503 with the reason
// during the needWaitForService window, 200 after it, and 503 again from
// the moment a graceful stop begins, all through the GO_AWAY period, while
// /healthz stays 200 until the process exits.
func TestHTTPReadyzWaitWindowAndGracefulStop(t *testing.T) {
	// Windows of 5 s leave room for a loaded machine between the steps.
	ns := startNamesrvHTTP(t, "-needWaitForService", "-waitSecondsForService", "5",
		"-enableShutdownGracefully", "-shutdownWaitTimeSeconds", "5")
	status, body, err := ns.get("/readyz")
	if err != nil || status != http.StatusServiceUnavailable || !strings.Contains(string(body), "needWaitForService") {
		t.Fatalf("readyz in the wait window: %d %q %v, want 503 naming needWaitForService", status, body, err)
	}
	eventually(t, 10*time.Second, "ready after the wait window", func() error {
		if status, body, err := ns.get("/readyz"); err != nil || status != http.StatusOK {
			return fmt.Errorf("%d %q %v", status, body, err)
		}
		return nil
	})

	client := nstest.NewClient(t, ns.Addr)
	_ = ns.cmd.Process.Signal(syscall.SIGTERM)
	eventually(t, 2*time.Second, "not ready once the stop began", func() error {
		if status, body, err := ns.get("/readyz"); err != nil || status != http.StatusServiceUnavailable || !strings.Contains(string(body), "shutting down") {
			return fmt.Errorf("%d %q %v", status, body, err)
		}
		return nil
	})
	// Still in the GO_AWAY period: the wire answers 1500 and readiness stays 503.
	nstest.MustCode(t, nstest.RouteQuery(t, client, nstest.SharedTopic, 479), remoting.GO_AWAY)
	if status, _, err := ns.get("/readyz"); err != nil || status != http.StatusServiceUnavailable {
		t.Fatalf("readyz during GO_AWAY: %d %v", status, err)
	}
	if status, _, err := ns.get("/healthz"); err != nil || status != http.StatusOK {
		t.Fatalf("healthz during GO_AWAY: %d %v, want 200 while the process serves", status, err)
	}
	select {
	case <-ns.exited:
	case <-time.After(15 * time.Second):
		t.Fatal("the NameServer did not exit after its graceful stop")
	}
	if _, _, err := ns.get("/healthz"); err == nil {
		t.Fatal("the side port still answers after exit")
	}
}

// Views of the JSON answers, as much as the tests compare.
type clustersAnswer struct {
	Clusters []struct {
		Name    string `json:"name"`
		Brokers []struct {
			BrokerName string            `json:"brokerName"`
			Addrs      map[string]string `json:"addrs"`
		} `json:"brokers"`
	} `json:"clusters"`
}

type topicsAnswer struct {
	Topics []struct {
		Topic       string   `json:"topic"`
		BrokerNames []string `json:"brokerNames"`
	} `json:"topics"`
	Total int `json:"total"`
}

type brokerAnswer struct {
	Cluster                  string `json:"cluster"`
	BrokerName               string `json:"brokerName"`
	BrokerAddr               string `json:"brokerAddr"`
	BrokerID                 int64  `json:"brokerId"`
	Role                     string `json:"role"`
	Version                  int32  `json:"version"`
	TopicCount               int    `json:"topicCount"`
	WritePermWiped           bool   `json:"writePermWiped"`
	HeartbeatTimeoutMillis   int64  `json:"heartbeatTimeoutMillis"`
	SinceLastHeartbeatMillis int64  `json:"sinceLastHeartbeatMillis"`
	ConnectionRemote         string `json:"connectionRemote"`
	DataVersion              struct {
		Counter int64 `json:"counter"`
	} `json:"dataVersion"`
}

type routeAnswer struct {
	QueueDatas []struct {
		BrokerName     string `json:"brokerName"`
		WriteQueueNums int32  `json:"writeQueueNums"`
		Perm           int32  `json:"perm"`
		PermText       string `json:"permText"`
	} `json:"queueDatas"`
	BrokerDatas []struct {
		BrokerName string            `json:"brokerName"`
		Addrs      map[string]string `json:"addrs"`
	} `json:"brokerDatas"`
}

// TestHTTPJSONViewAgreesWithTheWire: for the same state, the JSON view and
// the wire answer alike: clusters, topic list and paging, a topic's route
// (the java format byte for byte), a broker, the KV store and the config;
// errors are JSON with the right status.
func TestHTTPJSONViewAgreesWithTheWire(t *testing.T) {
	ns := startNamesrvHTTP(t)
	c := nstest.NewClient(t, ns.Addr)
	for _, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerASlave, nstest.BrokerB} {
		nstest.MustCode(t, nstest.Register(t, c, b), remoting.SUCCESS)
	}
	nstest.MustCode(t, nstest.Invoke(t, c, remoting.NewRequest(remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "broker-b"}, nil)), remoting.SUCCESS)
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(remoting.PUT_KV_CONFIG, "ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4")), remoting.SUCCESS)

	// Clusters.
	wireInfo, err := clusterInfoOf(ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	var clusters clustersAnswer
	ns.getJSON(t, "/v1/clusters", http.StatusOK, &clusters)
	if len(clusters.Clusters) != len(wireInfo.ClusterAddrTable) {
		t.Fatalf("clusters %+v, wire %+v", clusters, wireInfo.ClusterAddrTable)
	}
	for _, cl := range clusters.Clusters {
		if len(cl.Brokers) != len(wireInfo.ClusterAddrTable[cl.Name]) {
			t.Fatalf("cluster %s: %d broker names, wire %v", cl.Name, len(cl.Brokers), wireInfo.ClusterAddrTable[cl.Name])
		}
		for _, group := range cl.Brokers {
			wire := wireInfo.BrokerAddrTable[group.BrokerName].BrokerAddrs
			if len(group.Addrs) != len(wire) {
				t.Fatalf("%s addrs %v, wire %v", group.BrokerName, group.Addrs, wire)
			}
			for id, addr := range wire {
				if group.Addrs[strconv.FormatInt(id, 10)] != addr {
					t.Fatalf("%s id %d: %q, wire %q", group.BrokerName, id, group.Addrs[strconv.FormatInt(id, 10)], addr)
				}
			}
		}
	}

	// Topic list, paging and the cluster filter.
	allResp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil))
	wireList, err := route.DecodeTopicList(allResp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var all topicsAnswer
	ns.getJSON(t, "/v1/topics", http.StatusOK, &all)
	if all.Total != len(wireList.TopicList) || len(all.Topics) != all.Total {
		t.Fatalf("topics %+v, wire %v", all, wireList.TopicList)
	}
	seen := map[string]bool{}
	for _, tp := range all.Topics {
		seen[tp.Topic] = true
	}
	for _, topic := range wireList.TopicList {
		if !seen[topic] {
			t.Fatalf("wire topic %s missing from /v1/topics", topic)
		}
	}
	var second topicsAnswer
	ns.getJSON(t, "/v1/topics?offset=1&limit=1", http.StatusOK, &second)
	if second.Total != all.Total || len(second.Topics) != 1 || second.Topics[0].Topic != all.Topics[1].Topic {
		t.Fatalf("page 2 of 1: %+v", second)
	}
	var byCluster topicsAnswer
	ns.getJSON(t, "/v1/topics?cluster=DefaultCluster&q=Topic", http.StatusOK, &byCluster)
	wireCluster := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": "DefaultCluster"}, nil))
	if l, err := route.DecodeTopicList(wireCluster.Body); err != nil || len(l.TopicList) != byCluster.Total {
		t.Fatalf("cluster topics %d, wire %v (%v)", byCluster.Total, l, err)
	}

	// A route: the java format is the wire's body byte for byte; the JSON form says the same.
	wireRoute := nstest.RouteQuery(t, c, nstest.SharedTopic, 479)
	status, javaBody, err := ns.get("/v1/topics/" + nstest.SharedTopic + "/route?format=java")
	if err != nil || status != http.StatusOK || string(javaBody) != string(wireRoute.Body) {
		t.Fatalf("java format %d %v:\n%s\nwire:\n%s", status, err, javaBody, wireRoute.Body)
	}
	wireData := nstest.DecodeRoute(t, wireRoute)
	var rv routeAnswer
	ns.getJSON(t, "/v1/topics/"+nstest.SharedTopic+"/route", http.StatusOK, &rv)
	if len(rv.QueueDatas) != len(wireData.QueueDatas) || len(rv.BrokerDatas) != len(wireData.BrokerDatas) {
		t.Fatalf("route view %+v, wire %+v", rv, wireData)
	}
	for i, qd := range wireData.QueueDatas {
		got := rv.QueueDatas[i]
		if got.BrokerName != qd.BrokerName || got.WriteQueueNums != qd.WriteQueueNums || got.Perm != qd.Perm {
			t.Fatalf("queue data %d: %+v, wire %+v", i, got, qd)
		}
		if qd.BrokerName == "broker-b" && got.PermText != "R--" {
			t.Fatalf("wiped broker-b's perm text %q, want R--", got.PermText)
		}
	}
	var missing map[string]string
	ns.getJSON(t, "/v1/topics/NoSuchTopic/route", http.StatusNotFound, &missing)
	if !strings.Contains(missing["error"], "NoSuchTopic") {
		t.Fatalf("missing topic error %v", missing)
	}

	// A broker, against the registration the test sent.
	var master brokerAnswer
	ns.getJSON(t, "/v1/brokers/"+nstest.BrokerAMaster.Addr, http.StatusOK, &master)
	if master.BrokerName != "broker-a" || master.Cluster != "DefaultCluster" || master.BrokerID != 0 || master.Role != "master" ||
		master.TopicCount != len(nstest.BrokerAMaster.Topics) || master.WritePermWiped || master.DataVersion.Counter != nstest.BrokerAMaster.Version.Counter ||
		master.HeartbeatTimeoutMillis <= 0 || master.ConnectionRemote == "" || master.Version <= 0 {
		t.Fatalf("broker-a master %+v", master)
	}
	var wiped brokerAnswer
	ns.getJSON(t, "/v1/brokers/"+nstest.BrokerB.Addr, http.StatusOK, &wiped)
	if !wiped.WritePermWiped {
		t.Fatalf("broker-b %+v, want its write permission shown wiped", wiped)
	}
	var brokers struct {
		Brokers []brokerAnswer `json:"brokers"`
		Total   int            `json:"total"`
	}
	ns.getJSON(t, "/v1/brokers?limit=2", http.StatusOK, &brokers)
	if brokers.Total != 3 || len(brokers.Brokers) != 2 {
		t.Fatalf("brokers page %+v", brokers)
	}
	var notFound map[string]string
	ns.getJSON(t, "/v1/brokers/10.1.1.1:1", http.StatusNotFound, &notFound)
	ns.getJSON(t, "/v1/topics?limit=5000", http.StatusBadRequest, &notFound)
	if !strings.Contains(notFound["error"], "limit") {
		t.Fatalf("bad limit error %v", notFound)
	}

	// KV and config.
	var kv struct {
		Namespaces map[string]map[string]string `json:"namespaces"`
	}
	ns.getJSON(t, "/v1/kv", http.StatusOK, &kv)
	wireKV := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": "ORDER_TOPIC_CONFIG"}, nil))
	if kv.Namespaces["ORDER_TOPIC_CONFIG"]["TopicA"] != "broker-a:4" || !strings.Contains(string(wireKV.Body), `"TopicA":"broker-a:4"`) {
		t.Fatalf("kv view %v, wire %s", kv, wireKV.Body)
	}
	var cfg struct {
		Config map[string]string `json:"config"`
	}
	ns.getJSON(t, "/v1/config", http.StatusOK, &cfg)
	wireCfg := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
	for _, line := range strings.Split(strings.TrimSpace(string(wireCfg.Body)), "\n") {
		key, val, _ := strings.Cut(line, "=")
		if got, ok := cfg.Config[key]; !ok || got != val {
			t.Fatalf("config %s: view %q, wire %q", key, got, val)
		}
	}

	// Status and the debug dump.
	var st struct {
		Ready  bool `json:"ready"`
		Counts struct {
			LiveBrokers int `json:"liveBrokers"`
			Topics      int `json:"topics"`
		} `json:"counts"`
	}
	ns.getJSON(t, "/v1/status", http.StatusOK, &st)
	if !st.Ready || st.Counts.LiveBrokers != 3 || st.Counts.Topics != len(wireList.TopicList) {
		t.Fatalf("status %+v", st)
	}
	var dump struct {
		Brokers []brokerAnswer   `json:"brokers"`
		Topics  []map[string]any `json:"topics"`
	}
	ns.getJSON(t, "/v1/debug", http.StatusOK, &dump)
	if len(dump.Brokers) != 3 || len(dump.Topics) != len(wireList.TopicList) {
		t.Fatalf("debug dump: %d brokers, %d topics", len(dump.Brokers), len(dump.Topics))
	}
	var unknown map[string]string
	ns.getJSON(t, "/v1/nothing", http.StatusNotFound, &unknown)
}

// TestHTTPMetricsWiredCounters: the counters other parts of the server keep
// move on /metrics with what the test does: a connection refused past a
// small maxConnections, an ACL denial by class and reason, an accounts file
// that does not parse, a registration refused by its reason, a broker's
// first registration over a connection.
func TestHTTPMetricsWiredCounters(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrvHTTP(t, "-aclEnable", "-aclFile", file, "-maxConnections", "2")
	before := ns.scrape(t)
	if got := value(before, "rocketmq_namesrv_connections_max"); got != 2 {
		t.Errorf("connections_max %v, want 2", got)
	}
	if got := value(before, "rocketmq_namesrv_acl_reloads_total"); got < 1 {
		t.Errorf("acl_reloads_total %v, want the first load counted", got)
	}
	if got := value(before, "rocketmq_namesrv_acl_denials_total", "class", "admin_write", "reason", "not_admin"); got != 0 {
		t.Errorf("admin_write not_admin denials %v before any request, want a 0 series", got)
	}

	// One connection: a user that may not write, and a broker registering
	// unsigned from the white-listed 127.0.0.1.
	user := aclClient(t, ns.Addr, aclUser, nil)
	put := remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": "v"}, nil)
	nstest.MustCode(t, nstest.Invoke(t, user, put), remoting.NO_PERMISSION)
	nstest.MustCode(t, nstest.Invoke(t, user, put), remoting.NO_PERMISSION)
	nstest.Register(t, user, nstest.BrokerB)
	nstest.Register(t, user, nstest.BrokerB) // the same connection: one broker connection
	long := nstest.BrokerB
	long.Name = strings.Repeat("n", route.MaxNameLength+1)
	if resp := nstest.Invoke(t, user, long.RegisterRequest()); resp.Code == remoting.SUCCESS {
		t.Fatalf("a %d-byte broker name was registered", len(long.Name))
	}

	// The second connection fills the cap; the third is closed at once.
	second, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	eventually(t, 5*time.Second, "two connections open", func() error {
		if got := value(ns.scrape(t), "rocketmq_namesrv_connections_open"); got != 2 {
			return fmt.Errorf("connections_open %v, want 2", got)
		}
		return nil
	})
	third, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	_ = third.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := third.Read(make([]byte, 1)); err == nil || n != 0 {
		t.Fatalf("the connection past maxConnections read %d bytes, err %v; want it closed", n, err)
	}

	if err := os.WriteFile(file, []byte("accounts: [ {accessKey: "), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the broken accounts file counted", func() error {
		if got := value(ns.scrape(t), "rocketmq_namesrv_acl_reload_failures_total"); got != 1 {
			return fmt.Errorf("acl_reload_failures_total %v, want 1", got)
		}
		return nil
	})

	after := ns.scrape(t)
	checks := []struct {
		what      string
		got, want float64
	}{
		{"connections refused", value(after, "rocketmq_namesrv_connections_refused_total"), 1},
		{"connections open (one count for the cap and the gauge)", value(after, "rocketmq_namesrv_connections_open"), 2},
		{"broker connections open", value(after, "rocketmq_namesrv_connections_open", "kind", "broker"), 1},
		{"broker connections opened", value(after, "rocketmq_namesrv_broker_connections_opened_total"), 1},
		{"admin_write not_admin denials", value(after, "rocketmq_namesrv_acl_denials_total", "class", "admin_write", "reason", "not_admin"), 2},
		{"every denial", value(after, "rocketmq_namesrv_acl_denials_total"), 2},
		{"denied requests", value(after, "rocketmq_namesrv_requests_total", "code", "PUT_KV_CONFIG", "result", "denied"), 2},
		{"registrations refused past a limit", value(after, "rocketmq_namesrv_registrations_refused_total", "reason", "limit_exceeded"), 1},
		{"registrations refused, any reason", value(after, "rocketmq_namesrv_registrations_refused_total"), 1},
		{"refused registrations by result", value(after, "rocketmq_namesrv_registrations_total", "result", "refused"), 1},
		{"outbound pauses (none asked for)", value(after, "rocketmq_namesrv_outbound_pauses_total"), 0},
		{"notifications sent (no broker left)", value(after, "rocketmq_namesrv_notifications_total", "result", "sent"), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	nstest.MustCode(t, nstest.Invoke(t, user, put), remoting.NO_PERMISSION) // the accounts in force stayed
}
