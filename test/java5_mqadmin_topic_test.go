package test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"
)

// java5TopicMessages is how many messages the test sends: enough that
// every queue of the topic gets some.
const java5TopicMessages = 24

// TestJava5MqadminTopicCommands runs our mqadmin's topic and subscription
// group commands against two Java 5.3.3 masters (behind our NameServer)
// that hold messages and a consumer's offsets, next to Java's own mqadmin,
// and compares: the same text where Java's output is deterministic
// (topicStatus, allocateMQ, consumerProgress's rows, updateTopicPerm,
// updateSubGroup, deleteSubGroup), the same content for exportMetadata's
// files.
func TestJava5MqadminTopicCommands(t *testing.T) {
	build := java5Build(t)
	ns := startNamesrv(t)
	const cluster, topic, group = "JC", "JT", "JG"
	a := startJavaMaster(t, build, cluster, "jbroker-a", ns.Addr)
	b := startJavaMaster(t, build, cluster, "jbroker-b", ns.Addr)
	eventually(t, 60*time.Second, "both Java masters registered", func() error {
		known, err := brokerAddrsOf(ns.Addr)
		if err != nil || !known["jbroker-a/0="+a.Addr] || !known["jbroker-b/0="+b.Addr] {
			return fmt.Errorf("known %v, err %v", known, err)
		}
		return nil
	})
	n := []string{"-n", ns.Addr}
	ours := func(args ...string) string { return mustMqadmin(t, append(args, n...)...) }
	java := func(args ...string) string {
		t.Helper()
		out, _ := javaMqadmin(t, build, append(args, n...)...)
		return out
	}
	ours("updateTopic", "-c", cluster, "-t", topic, "-r", "4", "-w", "4")
	waitTopicPerm(t, ns.Addr, topic, map[string]int32{"jbroker-a": 6, "jbroker-b": 6})

	sendJava5TopicMessages(t, ns.Addr, topic)

	// topicStatus: offsets and last-update times from the store, same text.
	got, want := ours("topicStatus", "-t", topic), java("topicStatus", "-t", topic)
	if got != want || !strings.Contains(got, "jbroker-b") {
		t.Errorf("topicStatus:\nours:\n%s\nJava's:\n%s", got, want)
	}
	t.Logf("topicStatus, ours and Java's:\n%s", got)
	var status struct {
		Queues []struct{ MaxOffset int64 } `json:"queues"`
	}
	if err := json.Unmarshal([]byte(ours("topicStatus", "-t", topic, "-json")), &status); err != nil {
		t.Fatal(err)
	}
	total := int64(0)
	for _, q := range status.Queues {
		total += q.MaxOffset
	}
	if len(status.Queues) != 8 || total != java5TopicMessages {
		t.Errorf("topicStatus -json: %d queues, max offsets add up to %d, want 8 and %d", len(status.Queues), total, java5TopicMessages)
	}

	// allocateMQ: Java's allocation, byte for byte.
	for _, ips := range []string{"10.0.0.1,10.0.0.2,10.0.0.3", "c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11"} {
		if got, want := ours("allocateMQ", "-t", topic, "-i", ips), java("allocateMQ", "-t", topic, "-i", ips); got != want {
			t.Errorf("allocateMQ -i %s:\nours:   %s\nJava's: %s", ips, got, want)
		}
	}

	// updateTopicPerm: Java's to R on jbroker-a, ours back to RW.
	javaOut := java("updateTopicPerm", "-t", topic, "-p", "4", "-b", a.Addr)
	waitTopicPerm(t, ns.Addr, topic, map[string]int32{"jbroker-a": 4})
	got = ours("updateTopicPerm", "-t", topic, "-p", "6", "-b", a.Addr)
	if want := strings.NewReplacer("from 6 to 4", "from 4 to 6", "perm=R--", "perm=RW-").Replace(javaOut); got != want {
		t.Errorf("updateTopicPerm:\nours:\n%s\nJava's (perms swapped):\n%s", got, want)
	}
	waitTopicPerm(t, ns.Addr, topic, map[string]int32{"jbroker-a": 6})

	// updateSubGroup: Java's on jbroker-a, ours on jbroker-b, same text.
	javaOut = java("updateSubGroup", "-b", a.Addr, "-g", "JG2", "-r", "5", "-q", "2")
	got = ours("updateSubGroup", "-b", b.Addr, "-g", "JG2", "-r", "5", "-q", "2")
	if want := strings.ReplaceAll(javaOut, a.Addr, b.Addr); got != want {
		t.Errorf("updateSubGroup:\nours:\n%s\nJava's (address replaced):\n%s", got, want)
	}

	// The consumer: consume every message, then its offsets reach the brokers.
	stop := startJava5TopicConsumer(t, ns.Addr, topic, group)
	defer stop()
	eventually(t, 90*time.Second, "the consumer's offsets committed", func() error {
		r := mqadmin(t, append([]string{"consumerProgress", "-g", group, "-t", topic}, n...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Consume Diff Total: 0\n") || strings.Count(r.stdout, topic+" ") < 8 {
			return fmt.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return nil
	})
	// consumerProgress -g: the same rows (TPS is a moving figure: left out).
	dropTPS := func(s string) string {
		var keep []string
		for _, line := range strings.Split(s, "\n") {
			if !strings.HasPrefix(line, "Consume TPS:") {
				keep = append(keep, line)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, args := range [][]string{{"-g", group}, {"-g", group, "-t", topic}} {
		got, want := ours(append([]string{"consumerProgress"}, args...)...), java(append([]string{"consumerProgress"}, args...)...)
		if dropTPS(got) != dropTPS(want) || !strings.Contains(got, "Consume Diff Total: 0") {
			t.Errorf("consumerProgress %v:\nours:\n%s\nJava's:\n%s", args, got, want)
		}
		t.Logf("consumerProgress %v, ours:\n%s", args, got)
	}
	// Without -g: the group's line, count, version, type and model as Java's.
	groupLine := func(out string) []string {
		for _, line := range strings.Split(out, "\n") {
			if fields := strings.Fields(line); len(fields) >= 5 && fields[0] == group {
				return fields[:5]
			}
		}
		return nil
	}
	got, want = ours("consumerProgress"), java("consumerProgress")
	if g, w := groupLine(got), groupLine(want); g == nil || !reflect.DeepEqual(g, w) {
		t.Errorf("consumerProgress without -g: ours %v, Java's %v\nours:\n%s\nJava's:\n%s", g, w, got, want)
	}

	// exportMetadata: the same topics and groups as Java's export.
	oursDir, javaDir := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"-c", cluster}, {"-b", a.Addr, "-t"}, {"-b", b.Addr, "-g"}, {"-c", cluster, "-s", "-t"}} {
		ours(append([]string{"exportMetadata", "-f", oursDir}, args...)...)
		java(append([]string{"exportMetadata", "-f", javaDir}, args...)...)
		for _, file := range []string{"metadata.json", "topic.json", "subscriptionGroup.json"} {
			g, w := exportContent(t, filepath.Join(oursDir, file)), exportContent(t, filepath.Join(javaDir, file))
			if !reflect.DeepEqual(g, w) {
				t.Errorf("exportMetadata %v, %s:\nours:   %v\nJava's: %v", args, file, g, w)
			}
		}
	}
	if meta := exportContent(t, filepath.Join(oursDir, "metadata.json")); !strings.Contains(fmt.Sprint(meta), "JG2") {
		t.Errorf("metadata.json lacks JG2: %v", meta)
	}

	// deleteSubGroup: ours on jbroker-b, Java's on jbroker-a, same text.
	got = ours("deleteSubGroup", "-b", b.Addr, "-g", "JG2")
	if want := strings.ReplaceAll(java("deleteSubGroup", "-b", a.Addr, "-g", "JG2"), a.Addr, b.Addr); got != want {
		t.Errorf("deleteSubGroup:\nours:\n%s\nJava's (address replaced):\n%s", got, want)
	}
	if r := mqadmin(t, append([]string{"deleteSubGroup", "-b", b.Addr, "-g", "JG2"}, n...)...); r.code != 1 {
		t.Errorf("deleteSubGroup of a group Java's broker no longer has: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mqadmin(t, append([]string{"topicStatus", "-t", "NoSuchTopic"}, n...)...); r.code != 1 || r.stdout != "" {
		t.Errorf("topicStatus of an unknown topic: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// waitTopicPerm waits until the NameServer routes the topic with these
// perms per broker.
func waitTopicPerm(t *testing.T, ns, topic string, perms map[string]int32) {
	t.Helper()
	eventually(t, 60*time.Second, fmt.Sprintf("%s perms %v", topic, perms), func() error {
		data, _, err := routeOf(ns, topic)
		if err != nil || data == nil {
			return fmt.Errorf("route: %v", err)
		}
		for broker, perm := range perms {
			found := false
			for _, q := range data.QueueDatas {
				found = found || (q.BrokerName == broker && q.Perm == perm)
			}
			if !found {
				return fmt.Errorf("queue datas %+v", data.QueueDatas)
			}
		}
		return nil
	})
}

// sendJava5TopicMessages sends the test's messages with the Apache Go client.
func sendJava5TopicMessages(t *testing.T, ns, topic string) {
	t.Helper()
	rlog.SetLogLevel("error")
	p, err := producer.NewDefaultProducer(producer.WithNsResolver(primitive.NewPassthroughResolver([]string{ns})),
		producer.WithGroupName("java5-mqadmin-topic"), producer.WithSendMsgTimeout(10*time.Second), producer.WithRetry(2))
	if err == nil {
		err = p.Start()
	}
	if err != nil {
		t.Fatalf("producer: %v", err)
	}
	defer func() { _ = p.Shutdown() }()
	for i := range java5TopicMessages {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := p.SendSync(ctx, primitive.NewMessage(topic, []byte("message "+strconv.Itoa(i))))
		cancel()
		if err != nil || res.Status != primitive.SendOK {
			t.Fatalf("send %d: %v %+v", i, err, res)
		}
	}
}

// startJava5TopicConsumer starts a clustering push consumer of the group
// from the first offset; stop shuts it down.
func startJava5TopicConsumer(t *testing.T, ns, topic, group string) (stop func()) {
	t.Helper()
	c, err := consumer.NewPushConsumer(consumer.WithNsResolver(primitive.NewPassthroughResolver([]string{ns})),
		consumer.WithGroupName(group), consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset))
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	var consumed atomic.Int64
	err = c.Subscribe(topic, consumer.MessageSelector{}, func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		consumed.Add(int64(len(msgs)))
		return consumer.ConsumeSuccess, nil
	})
	if err == nil {
		err = c.Start()
	}
	if err != nil {
		t.Fatalf("consumer: %v", err)
	}
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			_ = c.Shutdown()
		}
	}
	t.Cleanup(stop)
	return stop
}

// exportContent is an export file's JSON less its exportTime and the
// topics' and groups' DataVersion timestamps (the moment of each export);
// nil when the file is absent.
func exportContent(t *testing.T, path string) map[string]any {
	t.Helper()
	text, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, text)
	}
	delete(v, "exportTime")
	return v
}
