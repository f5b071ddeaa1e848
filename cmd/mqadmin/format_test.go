package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/<name>.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file: %v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got ---\n%s\n--- want ---\n%s", name, path, got, want)
	}
}

func sampleRoute() *route.TopicRouteData {
	return &route.TopicRouteData{
		BrokerDatas: []route.BrokerData{
			{Cluster: "DefaultCluster", BrokerName: "broker-b", BrokerAddrs: map[int64]string{0: "192.168.0.4:10911"}},
			{Cluster: "DefaultCluster", BrokerName: "broker-a", BrokerAddrs: map[int64]string{0: "192.168.0.1:10911", 1: "192.168.0.2:10911"}},
		},
		QueueDatas: []route.QueueData{
			{BrokerName: "broker-a", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6},
			{BrokerName: "broker-b", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 4},
		},
		FilterServerTable: map[string][]string{},
	}
}

func sampleClusterInfo() *route.ClusterInfo {
	r := sampleRoute()
	return &route.ClusterInfo{
		BrokerAddrTable:  map[string]route.BrokerData{"broker-a": r.BrokerDatas[1], "broker-b": r.BrokerDatas[0]},
		ClusterAddrTable: map[string][]string{"DefaultCluster": {"broker-b", "broker-a"}},
	}
}

func TestGoldenTopicRoute(t *testing.T) {
	pretty, err := formatTopicRoutePretty(sampleRoute())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "topicRoute", pretty)
	golden(t, "topicRoute-l", formatTopicRouteList(sampleRoute()))
}

func TestGoldenClusterList(t *testing.T) {
	runtime := brokerRuntime{
		"brokerVersionDesc": "V5_3_3", "brokerActive": "true", "putTps": "0.0 0.0 0.0", "getTransferredTps": "0.0 0.0 0.0",
		"sendThreadPoolQueueSize": "0", "sendThreadPoolQueueHeadWaitTimeMills": "0", "pullThreadPoolQueueSize": "0",
		"pullThreadPoolQueueHeadWaitTimeMills": "0", "ackThreadPoolQueueSize": "0", "ackThreadPoolQueueHeadWaitTimeMills": "0",
		"pageCacheLockTimeMills": "0", "timerReadBehind": "0", "timerOffsetBehind": "0", "timerCongestNum": "0",
		"timerEnqueueTps": "0.0", "timerDequeueTps": "0.0",
		"msgPutTotalYesterdayMorning": "0", "msgPutTotalTodayMorning": "5", "msgPutTotalTodayNow": "7",
	}
	now := time.UnixMilli(1_700_000_000_000)
	out := clusterListHeader +
		clusterListRow("DefaultCluster", "broker-a", 0, "192.168.0.1:10911", runtime, now) +
		clusterListRow("DefaultCluster", "broker-a", 1, "192.168.0.2:10911", nil, now)
	golden(t, "clusterList", out)
	golden(t, "clusterList-m", clusterMoreHeader+clusterMoreRow("DefaultCluster", "broker-a", runtime))
}

func TestGoldenTopicListCluster(t *testing.T) {
	golden(t, "topicList-c", topicListClusterHeader+topicListClusterRow("DefaultCluster", "TopicA", ""))
}

func TestGoldenNamesrvConfig(t *testing.T) {
	props := parseProperties([]byte("listenPort=9876\norderMessageEnable=false\nkvConfigPath=/root/namesrv/kvConfig.json\n"))
	golden(t, "getNamesrvConfig", formatNamesrvConfig("127.0.0.1:9876", props))
}

func TestGoldenTopicConfigText(t *testing.T) {
	tc := route.NewTopicConfig("T")
	tc.ReadQueueNums, tc.WriteQueueNums = 8, 8
	tc.Attributes = map[string]string{}
	plain := topicConfigText(tc)
	want := "TopicConfig [topicName=T, readQueueNums=8, writeQueueNums=8, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={}]"
	if plain != want {
		t.Fatalf("got  %s\nwant %s", plain, want)
	}
	tc.Perm, tc.Attributes = 7, map[string]string{"+message.type": "FIFO"}
	if got := topicConfigText(tc); got != "TopicConfig [topicName=T, readQueueNums=8, writeQueueNums=8, perm=RWX, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={+message.type=FIFO}]" {
		t.Fatalf("got %s", got)
	}
}

func TestClusterOfTopic(t *testing.T) {
	if got := clusterOfTopic(sampleClusterInfo(), sampleRoute()); len(got) != 1 || got[0] != "DefaultCluster" {
		t.Fatalf("clusterOfTopic = %v", got)
	}
	if got := clusterOfTopic(sampleClusterInfo(), &route.TopicRouteData{}); got != nil {
		t.Fatalf("empty route: %v", got)
	}
}

func TestMergeOrderConf(t *testing.T) {
	if got := mergeOrderConf("broker-a:4;broker-b:8", "broker-b:2"); got != "broker-a:4;broker-b:2" {
		t.Fatalf("got %s", got)
	}
	if got := mergeOrderConf("", "broker-c:1"); got != "broker-c:1" {
		t.Fatalf("got %s", got)
	}
}

// TestPendingRestartLinesPrinted: the server's pending-restart comment lines
// are printed after the keys (and only they: other comments are not), while
// the keys parse as before.
func TestPendingRestartLinesPrinted(t *testing.T) {
	body := []byte("defaultThreadPoolNums=3\nlistenPort=9876\n# another comment\n# pending restart: defaultThreadPoolNums=3 (running: 16)\n")
	if got, want := formatPendingRestart(body), "pending restart: defaultThreadPoolNums=3 (running: 16)\n"; got != want {
		t.Fatalf("pending lines %q, want %q", got, want)
	}
	if props := parseProperties(body); len(props) != 2 || props["defaultThreadPoolNums"] != "3" {
		t.Fatalf("keys %v", props)
	}
	if got := formatPendingRestart([]byte("listenPort=9876\n")); got != "" {
		t.Fatalf("pending lines %q for a body without any", got)
	}
}
