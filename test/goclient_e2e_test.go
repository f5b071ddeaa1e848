package test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"
)

// These tests drive our NameServer with the Apache RocketMQ Go client
// (github.com/apache/rocketmq-client-go/v2): software nobody here wrote, which
// sends version-317 route queries and parses the plain (bare-key) JSON.

func newGoAdmin(t *testing.T, nameServers ...string) admin.Admin {
	t.Helper()
	rlog.SetLogLevel("error")
	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver(nameServers)))
	if err != nil {
		t.Fatalf("apache go admin: %v", err)
	}
	t.Cleanup(func() { _ = adm.Close() })
	return adm
}

func TestApacheGoClientAgainstNamesrv(t *testing.T) {
	ns := startNamesrv(t)
	brokerA := startBroker(t, brokerSpec{cluster: "DefaultCluster", name: "broker-a", id: 0, nameServers: []*process{ns}})
	brokerB := startBroker(t, brokerSpec{cluster: "DefaultCluster", name: "broker-b", id: 0, nameServers: []*process{ns}})
	adm := newGoAdmin(t, ns.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// The Go client's admin creates the topic on both brokers; they register it.
	for _, b := range []*process{brokerA, brokerB} {
		err := adm.CreateTopic(ctx, admin.WithTopicCreate("GoClientTopic"), admin.WithBrokerAddrCreate(b.Addr),
			admin.WithReadQueueNums(6), admin.WithWriteQueueNums(6))
		if err != nil {
			t.Fatalf("CreateTopic on %s: %v", b.Addr, err)
		}
	}

	// The Go client caches a route once fetched: wait until both brokers'
	// registrations of the new topic arrived, then ask it once.
	eventually(t, 5*time.Second, "both brokers registered the topic", func() error {
		data, code, err := routeOf(ns.Addr, "GoClientTopic")
		if err != nil || code != 0 || len(data.QueueDatas) != 2 {
			return fmt.Errorf("code %d err %v route %+v", code, err, data)
		}
		return nil
	})
	queues, err := adm.FetchPublishMessageQueues(ctx, "GoClientTopic")
	if err != nil {
		t.Fatalf("FetchPublishMessageQueues: %v", err)
	}
	perBroker := map[string]int{}
	for _, q := range queues {
		if q.Topic != "GoClientTopic" {
			t.Fatalf("queue of topic %q", q.Topic)
		}
		perBroker[q.BrokerName]++
	}
	if len(perBroker) != 2 || perBroker["broker-a"] != 6 || perBroker["broker-b"] != 6 {
		t.Fatalf("queues per broker %v, want 6 on broker-a and broker-b", perBroker)
	}

	list, err := adm.FetchAllTopicList(ctx)
	if err != nil {
		t.Fatalf("FetchAllTopicList: %v", err)
	}
	sort.Strings(list.TopicList)
	if i := sort.SearchStrings(list.TopicList, "GoClientTopic"); i == len(list.TopicList) || list.TopicList[i] != "GoClientTopic" {
		t.Fatalf("topic list %v lacks GoClientTopic", list.TopicList)
	}

	if _, err := adm.FetchPublishMessageQueues(ctx, "NoSuchTopic"); err == nil || !strings.Contains(strings.ToLower(err.Error()), "not exist") {
		t.Fatalf("missing topic: err %v, want a 'topic not exist' error", err)
	}

	// DeleteTopic deletes on the broker, then on every NameServer.
	for _, b := range []*process{brokerA, brokerB} {
		err := adm.DeleteTopic(ctx, admin.WithTopicDelete("GoClientTopic"), admin.WithBrokerAddrDelete(b.Addr),
			admin.WithNameSrvAddr([]string{ns.Addr}))
		if err != nil {
			t.Fatalf("DeleteTopic via %s: %v", b.Addr, err)
		}
	}
	if _, code, err := routeOf(ns.Addr, "GoClientTopic"); err != nil || code != 17 {
		t.Fatalf("route after DeleteTopic: code %d err %v, want 17 (TOPIC_NOT_EXIST)", code, err)
	}
	list, err = adm.FetchAllTopicList(ctx)
	if err != nil {
		t.Fatalf("FetchAllTopicList after delete: %v", err)
	}
	for _, topic := range list.TopicList {
		if topic == "GoClientTopic" {
			t.Fatalf("deleted topic still listed: %v", list.TopicList)
		}
	}
}
