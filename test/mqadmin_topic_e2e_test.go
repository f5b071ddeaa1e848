package test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// topicStatusHeader is Java's TopicStatusSubCommand header line.
var topicStatusHeader = fmt.Sprintf("%-32s  %-4s  %-20s  %-20s    %s\n", "#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated")

// TestMqadminTopicAndGroupCommands runs the topic and subscription group
// commands (topicStatus, updateTopicPerm, allocateMQ, exportMetadata,
// updateSubGroup, deleteSubGroup, consumerProgress) with the real binaries:
// one NameServer, two cmd/broker masters of cluster C1. Then a third master
// registered at an address where nothing listens: the commands over several
// brokers keep the two good brokers' output and exit 2, naming the dead one
// on stderr. Unknown topics, groups and clusters exit non-zero.
func TestMqadminTopicAndGroupCommands(t *testing.T) {
	ns := startNamesrv(t)
	const cluster, topic = "C1", "T1"
	a := startBroker(t, brokerSpec{cluster: cluster, name: "broker-a", nameServers: []*process{ns}})
	b := startBroker(t, brokerSpec{cluster: cluster, name: "broker-b", nameServers: []*process{ns}})
	eventually(t, clusterDeadline, "both brokers registered", func() error {
		known, err := brokerAddrsOf(ns.Addr)
		if err != nil || !known["broker-a/0="+a.Addr] || !known["broker-b/0="+b.Addr] {
			return fmt.Errorf("known %v, err %v", known, err)
		}
		return nil
	})
	n := []string{"-n", ns.Addr}
	run := func(args ...string) mqadminResult { return mqadmin(t, append(args, n...)...) }
	must := func(args ...string) string { return mustMqadmin(t, append(args, n...)...) }
	must("updateTopic", "-c", cluster, "-t", topic, "-r", "4", "-w", "4")
	waitPerm := func(broker string, perm int32) {
		eventually(t, clusterDeadline, fmt.Sprintf("%s perm %d in the route", broker, perm), func() error {
			data, _, err := routeOf(ns.Addr, topic)
			if err != nil || data == nil {
				return fmt.Errorf("route: %v", err)
			}
			for _, q := range data.QueueDatas {
				if q.BrokerName == broker && q.Perm == perm {
					return nil
				}
			}
			return fmt.Errorf("queue datas %+v", data.QueueDatas)
		})
	}
	waitPerm("broker-a", 6)
	waitPerm("broker-b", 6)

	// topicStatus: one zero row per queue (no store), Java's table.
	out := must("topicStatus", "-t", topic)
	if !strings.HasPrefix(out, topicStatusHeader) || !strings.HasSuffix(out, "\nTopic Put TPS: 0.0\n") ||
		!strings.Contains(out, fmt.Sprintf("%-32s  %-4d  %-20d  %-20d    \n", "broker-b", 3, 0, 0)) || strings.Count(out, "\n") != 11 {
		t.Errorf("topicStatus:\n%s", out)
	}
	var status struct {
		Queues []struct {
			BrokerName string `json:"brokerName"`
			QueueID    int32  `json:"queueId"`
		} `json:"queues"`
	}
	if err := json.Unmarshal([]byte(must("topicStatus", "-t", topic, "-json")), &status); err != nil || len(status.Queues) != 8 {
		t.Errorf("topicStatus -json: %+v %v", status, err)
	}
	if r := run("topicStatus", "-t", "NoSuchTopic"); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "TopicStatusSubCommand command failed") {
		t.Errorf("topicStatus of an unknown topic: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	// updateTopicPerm on one master, then the same perm again, then the cluster.
	out = must("updateTopicPerm", "-t", topic, "-p", "4", "-b", a.Addr)
	if want := "update topic perm from 6 to 4 in " + a.Addr + " success.\nTopicConfig [topicName=T1, readQueueNums=4, writeQueueNums=4, perm=R--, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={}].\n"; out != want {
		t.Errorf("updateTopicPerm -b:\n%s\nwant\n%s", out, want)
	}
	waitPerm("broker-a", 4)
	if out = must("updateTopicPerm", "-t", topic, "-p", "4", "-b", a.Addr); out != "new perm equals to the old one!\n" {
		t.Errorf("same perm again: %q", out)
	}
	if r := run("updateTopicPerm", "-t", topic, "-p", "4", "-b", ns.Addr); r.code != 1 || !strings.Contains(r.stderr, "updateTopicPerm error broker not exit or broker is not master!.") {
		t.Errorf("updateTopicPerm to a non-broker: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	out = must("updateTopicPerm", "-t", topic, "-p", "6", "-c", cluster)
	if !strings.Contains(out, " to 6 in "+a.Addr+" success.\n") || !strings.Contains(out, " to 6 in "+b.Addr+" success.\n") {
		t.Errorf("updateTopicPerm -c:\n%s", out)
	}
	waitPerm("broker-a", 6)

	// allocateMQ: the 8 queues among 3 clients, 3/3/2.
	var alloc struct {
		Result map[string][]map[string]any `json:"result"`
	}
	out = must("allocateMQ", "-t", topic, "-i", "10.0.0.1,10.0.0.2,10.0.0.3")
	if err := json.Unmarshal([]byte(out), &alloc); err != nil || !strings.HasPrefix(out, `{"result":{"`) ||
		len(alloc.Result["10.0.0.1"]) != 3 || len(alloc.Result["10.0.0.2"]) != 3 || len(alloc.Result["10.0.0.3"]) != 2 {
		t.Errorf("allocateMQ: %v\n%s", err, out)
	}
	if err := json.Unmarshal([]byte(must("allocateMQ", "-t", topic, "-i", "x,y", "-json")), &alloc); err != nil || len(alloc.Result["x"]) != 4 {
		t.Errorf("allocateMQ -json: %+v %v", alloc, err)
	}
	if r := run("allocateMQ", "-t", "NoSuchTopic", "-i", "x"); r.code != 1 || r.stdout != "" {
		t.Errorf("allocateMQ of an unknown topic: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	// updateSubGroup on the cluster and on one broker; the table is persisted.
	out = must("updateSubGroup", "-c", cluster, "-g", "G1", "-r", "3")
	if !strings.Contains(out, "create subscription group to "+a.Addr+" success.\n") || !strings.Contains(out, "create subscription group to "+b.Addr+" success.\n") ||
		!strings.HasSuffix(out, "SubscriptionGroupConfig{groupName=G1, consumeEnable=true, consumeFromMinEnable=false, consumeBroadcastEnable=false, consumeMessageOrderly=false, retryQueueNums=1, retryMaxTimes=3, groupRetryPolicy=GroupRetryPolicy{type=CUSTOMIZED, exponentialRetryPolicy=null, customizedRetryPolicy=null}, brokerId=0, whichBrokerWhenConsumeSlowly=1, notifyConsumerIdsChangedEnable=true, groupSysFlag=0, consumeTimeoutMinute=15, subscriptionDataSet=null, attributes={}}") {
		t.Errorf("updateSubGroup -c:\n%s", out)
	}
	must("updateSubGroup", "-b", b.Addr, "-g", "G2")
	if text, err := os.ReadFile(filepath.Join(a.DataDir, "config", "subscriptionGroup.json")); err != nil || !strings.Contains(string(text), "\t\t\"G1\":{") {
		t.Errorf("broker-a's subscriptionGroup.json: %v\n%s", err, text)
	}

	// exportMetadata: the cluster merged, one broker's topics and groups.
	dir := t.TempDir()
	out = must("exportMetadata", "-c", cluster, "-f", dir)
	if out != "export "+filepath.Join(dir, "metadata.json")+" success\n" {
		t.Errorf("exportMetadata -c: %q", out)
	}
	var meta exportedMetadata
	readJSON(t, filepath.Join(dir, "metadata.json"), &meta)
	if tc := meta.TopicConfigTable[topic]; tc.ReadQueueNums != 8 || tc.WriteQueueNums != 8 || len(meta.TopicConfigTable) != 1 ||
		meta.SubscriptionGroupTable["G1"].RetryQueueNums != 2 || meta.SubscriptionGroupTable["G2"].RetryQueueNums != 1 ||
		len(meta.SubscriptionGroupTable) != 2 || meta.ExportTime == 0 {
		t.Errorf("metadata.json: %+v", meta)
	}
	if out = must("exportMetadata", "-b", b.Addr, "-g", "-f", dir); out != "export "+filepath.Join(dir, "subscriptionGroup.json")+" success" {
		t.Errorf("exportMetadata -b -g: %q", out)
	}
	meta = exportedMetadata{}
	readJSON(t, filepath.Join(dir, "subscriptionGroup.json"), &meta)
	if len(meta.SubscriptionGroupTable) != 2 {
		t.Errorf("subscriptionGroup.json of broker-b: %+v", meta.SubscriptionGroupTable)
	}
	must("exportMetadata", "-b", a.Addr, "-t", "-f", dir)
	meta = exportedMetadata{}
	readJSON(t, filepath.Join(dir, "topic.json"), &meta)
	if len(meta.TopicConfigTable) != 1 || meta.TopicConfigTable[topic].ReadQueueNums != 4 {
		t.Errorf("topic.json of broker-a (system topics left out): %+v", meta.TopicConfigTable)
	}

	// consumerProgress: zero offsets per queue of the topic (no store).
	out = must("consumerProgress", "-g", "G1", "-t", topic)
	if !strings.HasPrefix(out, fmt.Sprintf("%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s%s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#Inflight", "#LastTime")) ||
		strings.Count(out, fmt.Sprintf("%-20d %-20d N/A\n", 0, 0)) != 8 || !strings.HasSuffix(out, "\nConsume TPS: 0.00\nConsume Diff Total: 0\nConsume Inflight Total: 0\n") {
		t.Errorf("consumerProgress -g -t:\n%s", out)
	}
	var progress struct {
		Queues []struct{ Topic string } `json:"queues"`
	}
	if err := json.Unmarshal([]byte(must("consumerProgress", "-g", "G1", "-t", topic, "-json")), &progress); err != nil || len(progress.Queues) != 8 {
		t.Errorf("consumerProgress -json: %+v %v", progress, err)
	}
	if r := run("consumerProgress", "-g", "NoSuchGroup"); r.code != 1 || r.stdout != "" {
		t.Errorf("consumerProgress of an unknown group: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if out = must("consumerProgress"); !strings.HasPrefix(out, "#Group") || strings.Count(out, "\n") != 1 {
		t.Errorf("consumerProgress without -g (no retry topics):\n%s", out)
	}

	// A third master registered where nothing listens: partial results.
	dead := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, ns.Addr), nstest.Broker{Cluster: cluster, Name: "broker-dead", Addr: dead, Topics: map[string]int32{topic: 4, "broker-dead": 1}}), remoting.SUCCESS)
	partial := func(args ...string) mqadminResult {
		t.Helper()
		r := run(args...)
		if r.code != 2 || !strings.Contains(r.stderr, dead) || strings.Contains(r.stdout, dead) {
			t.Errorf("%v with a dead master: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	if r := partial("topicStatus", "-t", topic); strings.Count(r.stdout, "broker-a ") != 4 || strings.Count(r.stdout, "broker-b ") != 4 {
		t.Errorf("topicStatus kept rows:\n%s", r.stdout)
	}
	if r := partial("consumerProgress", "-g", "G1", "-t", topic); strings.Count(r.stdout, "N/A\n") != 8 {
		t.Errorf("consumerProgress kept rows:\n%s", r.stdout)
	}
	if r := partial("updateSubGroup", "-c", cluster, "-g", "G3"); strings.Count(r.stdout, "success.\n") != 2 {
		t.Errorf("updateSubGroup kept lines:\n%s", r.stdout)
	}
	if r := partial("updateTopicPerm", "-t", topic, "-p", "6", "-c", cluster); strings.Count(r.stdout, "success.\n") != 2 {
		t.Errorf("updateTopicPerm kept lines:\n%s", r.stdout)
	}
	partial("exportMetadata", "-c", cluster, "-f", dir)
	meta = exportedMetadata{}
	readJSON(t, filepath.Join(dir, "metadata.json"), &meta)
	if meta.SubscriptionGroupTable["G3"].RetryQueueNums != 2 {
		t.Errorf("metadata.json from the two live masters: %+v", meta)
	}
	if r := partial("deleteSubGroup", "-c", cluster, "-g", "G1"); strings.Count(r.stdout, "delete subscription group [G1] from broker [") != 2 {
		t.Errorf("deleteSubGroup kept lines:\n%s", r.stdout)
	}

	// deleteSubGroup: a group no broker has is an error, not a silent success.
	if r := run("deleteSubGroup", "-b", a.Addr, "-g", "G1"); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "subscription group [G1] not found on broker "+a.Addr) {
		t.Errorf("deleteSubGroup of a deleted group: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if out = must("deleteSubGroup", "-b", b.Addr, "-g", "G2"); out != "delete subscription group [G2] from broker ["+b.Addr+"] success.\n" {
		t.Errorf("deleteSubGroup -b: %q", out)
	}
	if r := run("updateSubGroup", "-c", "NoSuchCluster", "-g", "G"); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `cluster "NoSuchCluster" not found`) {
		t.Errorf("updateSubGroup to an unknown cluster: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// exportedMetadata is what the tests read of exportMetadata's files.
type exportedMetadata struct {
	TopicConfigTable       map[string]struct{ ReadQueueNums, WriteQueueNums int32 } `json:"topicConfigTable"`
	SubscriptionGroupTable map[string]struct{ RetryQueueNums int32 }                `json:"subscriptionGroupTable"`
	ExportTime             int64                                                    `json:"exportTime"`
}

// readJSON decodes a file written by mqadmin.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, text)
	}
}
