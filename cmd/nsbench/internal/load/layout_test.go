package load

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestLayoutShape(t *testing.T) {
	spec := LayoutSpec{Clusters: 3, BrokersPerCluster: 4, TopicsPerCluster: 5, QueueNums: 8}
	l := NewLayout(spec)
	if len(l.Brokers()) != 12 || l.TopicCount() != 15 || spec.QueueEntries() != 3*4*5*8 {
		t.Fatalf("brokers %d topics %d entries %d", len(l.Brokers()), l.TopicCount(), spec.QueueEntries())
	}
	names, addrs, topics := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i, b := range l.Brokers() {
		if b.Index != i || l.Clusters[b.ClusterIndex].Name != b.Cluster {
			t.Fatalf("broker %d: %+v", i, b)
		}
		names[b.Name], addrs[b.Addr] = true, true
	}
	for i := range l.TopicCount() {
		topic, c := l.Topic(i)
		if !strings.Contains(topic, "Cluster") || c != i/5 {
			t.Fatalf("topic %d: %q in cluster %d", i, topic, c)
		}
		topics[topic] = true
	}
	if len(names) != 12 || len(addrs) != 12 || len(topics) != 15 {
		t.Fatalf("names, addresses and topics must be unique: %d %d %d", len(names), len(addrs), len(topics))
	}
	if NewLayout(spec).Clusters[2].Topics[4] != l.Clusters[2].Topics[4] {
		t.Fatal("two layouts of one spec must agree (the baseline relies on it)")
	}
}

func TestRouteDataAndTopicConfigsOfACluster(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 3, TopicsPerCluster: 4, QueueNums: 16})
	data := l.RouteData(1)
	if len(data.BrokerDatas) != 3 || len(data.QueueDatas) != 3 {
		t.Fatalf("route data %+v", data)
	}
	for i, bd := range data.BrokerDatas {
		b := l.Clusters[1].Brokers[i]
		if bd.BrokerName != b.Name || bd.BrokerAddrs[route.MasterID] != b.Addr || data.QueueDatas[i].WriteQueueNums != 16 {
			t.Fatalf("broker %d: %+v / %+v", i, bd, data.QueueDatas[i])
		}
	}
	table := l.TopicConfigs(1)
	if len(table) != 4 {
		t.Fatalf("%d topic configs", len(table))
	}
	for name, tc := range table {
		if tc.TopicName != name || tc.ReadQueueNums != 16 || tc.Perm != route.PermRead|route.PermWrite {
			t.Fatalf("topic config %+v", tc)
		}
	}
}
