// Package load generates NameServer traffic over the real wire: it seeds
// brokers and topics with REGISTER_BROKER, then drives streams of route
// queries, registrations and heartbeats from many connections with a fixed
// number of requests in flight, checking every answer.
package load

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gonamesrv/gonamesrv/route"
)

// Broker is one seeded broker: a master (id 0) of its own broker group.
type Broker struct {
	Cluster string
	Name    string
	Addr    string
	// Index is the broker's position in Layout.Brokers.
	Index int
	// ClusterIndex is its cluster's position in Layout.Clusters.
	ClusterIndex int
}

// Cluster is a set of brokers that all serve the same topics, the shape of
// the Java JMH benchmarks (every broker of a cluster registers every topic).
type Cluster struct {
	Name    string
	Brokers []Broker
	Topics  []string
	// brokerNames is the sorted, comma-joined broker names every route of
	// the cluster's topics must list.
	brokerNames string
}

// Layout is the whole seeded data set.
type Layout struct {
	Clusters  []Cluster
	QueueNums int32
	brokers   []Broker
	// topicCluster maps a global topic index to its cluster.
	topicCluster []int
	topics       []string
	// routeSets are the route queries of every topic per client layout,
	// built on first use.
	routeMu   sync.Mutex
	routeSets map[Client]*RequestSet
}

// LayoutSpec sizes a layout; it is also what a baseline server needs to
// answer with bodies of the real size.
type LayoutSpec struct {
	Clusters          int
	BrokersPerCluster int
	TopicsPerCluster  int
	QueueNums         int32
}

// String is the spec in the tool's flag syntax, for reports.
func (s LayoutSpec) String() string {
	return fmt.Sprintf("%d cluster(s) x %d broker(s), %d topic(s) per cluster, %d queue(s)",
		s.Clusters, s.BrokersPerCluster, s.TopicsPerCluster, s.QueueNums)
}

// QueueEntries is the number of queue entries the layout loads into a
// NameServer: one QueueData per topic and broker, QueueNums queues each.
func (s LayoutSpec) QueueEntries() int {
	return s.Clusters * s.BrokersPerCluster * s.TopicsPerCluster * int(s.QueueNums)
}

// NewLayout builds the names and addresses of a layout. Names are fixed by
// the spec, so a server and a baseline built from the same spec agree.
func NewLayout(spec LayoutSpec) *Layout {
	l := &Layout{QueueNums: spec.QueueNums}
	for c := range spec.Clusters {
		cluster := Cluster{Name: fmt.Sprintf("NsbenchCluster-%d", c)}
		for b := range spec.BrokersPerCluster {
			broker := Broker{
				Cluster:      cluster.Name,
				Name:         fmt.Sprintf("nsbench-c%d-broker-%d", c, b),
				Addr:         fmt.Sprintf("127.0.0.1:%d", 20000+c*100+b),
				Index:        len(l.brokers),
				ClusterIndex: c,
			}
			cluster.Brokers = append(cluster.Brokers, broker)
			l.brokers = append(l.brokers, broker)
		}
		for t := range spec.TopicsPerCluster {
			// Java's JMH topics are 32 random letters plus an index; these
			// have the same length, so bodies have the same size.
			topic := fmt.Sprintf("NsbenchTopicOfCluster%dXXXXXXXXXX%d", c, t)
			cluster.Topics = append(cluster.Topics, topic)
			l.topics = append(l.topics, topic)
			l.topicCluster = append(l.topicCluster, c)
		}
		names := make([]string, 0, len(cluster.Brokers))
		for _, b := range cluster.Brokers {
			names = append(names, b.Name)
		}
		slices.Sort(names)
		cluster.brokerNames = strings.Join(names, ",")
		l.Clusters = append(l.Clusters, cluster)
	}
	return l
}

// Brokers lists every broker, cluster by cluster.
func (l *Layout) Brokers() []Broker { return l.brokers }

// TopicCount is the number of distinct topics.
func (l *Layout) TopicCount() int { return len(l.topics) }

// Topic returns the topic with global index i and the index of its cluster.
func (l *Layout) Topic(i int) (string, int) { return l.topics[i], l.topicCluster[i] }

// RouteData is the route a NameServer holds for any topic of cluster c:
// one broker group and one QueueData per broker of the cluster.
func (l *Layout) RouteData(c int) *route.TopicRouteData {
	cluster := l.Clusters[c]
	data := &route.TopicRouteData{FilterServerTable: map[string][]string{}}
	for _, b := range cluster.Brokers {
		data.BrokerDatas = append(data.BrokerDatas, route.BrokerData{Cluster: b.Cluster, BrokerName: b.Name,
			BrokerAddrs: map[int64]string{route.MasterID: b.Addr}})
		data.QueueDatas = append(data.QueueDatas, route.QueueData{BrokerName: b.Name, ReadQueueNums: l.QueueNums,
			WriteQueueNums: l.QueueNums, Perm: route.PermRead | route.PermWrite})
	}
	return data
}

// TopicConfigs is the topic table every broker of cluster c registers.
func (l *Layout) TopicConfigs(c int) map[string]route.TopicConfig {
	topics := l.Clusters[c].Topics
	table := make(map[string]route.TopicConfig, len(topics))
	for _, topic := range topics {
		tc := route.NewTopicConfig(topic)
		tc.ReadQueueNums, tc.WriteQueueNums = l.QueueNums, l.QueueNums
		table[topic] = tc
	}
	return table
}
