package route

import (
	"slices"
	"strings"
	"sync"
)

// The operators' view (the HTTP side port's JSON and dashboard): read-only,
// from the current snapshot, never the writer lock. Counts are kept as the
// tables change; the per-broker topic counts and the sorted topic names are
// derived once per snapshot and cached, so a dashboard polling every few
// seconds costs one walk per table change, not one per poll.

// Counts are the sizes of the route tables, read in O(1) (metrics gauges).
type Counts struct {
	Topics       int // topicQueueTable
	QueueDatas   int // queue data over all topics
	BrokerGroups int // brokerAddrTable
	LiveBrokers  int // brokerLiveTable
	Clusters     int // clusterAddrTable
}

// Counts returns the sizes of the current tables.
func (m *Manager) Counts() Counts {
	s := m.current.Load()
	return Counts{
		Topics:       s.topics.len(),
		QueueDatas:   s.queueDatas,
		BrokerGroups: s.groups.len(),
		LiveBrokers:  s.live.len(),
		Clusters:     len(s.clusters),
	}
}

// ExpiryExamined is how many live entries the expiry scans looked at so
// far: those whose deadline bucket came due, expired or not.
func (m *Manager) ExpiryExamined() uint64 { return m.expiry.examined.Load() }

// LiveBrokerView is one row of brokerLiveTable with what an operator asks
// about it.
type LiveBrokerView struct {
	Cluster      string
	BrokerName   string
	BrokerAddr   string
	BrokerID     int64 // -1 when its group no longer lists the address
	HAServerAddr string
	ZoneName     string
	// Version is the request version of its last registration (MQVersion).
	Version                int32
	DataVersion            DataVersion
	HeartbeatTimeoutMillis int64
	LastUpdateMillis       int64 // last registration, heartbeat or data version query
	LastRegisterMillis     int64 // last REGISTER_BROKER
	// TopicCount is the number of topics holding queue data of its broker name.
	TopicCount int
	// WritePermWiped says every topic of its broker name lost write permission
	// (wipeWritePerm, a drained broker).
	WritePermWiped bool
	Conn           ConnID
}

// brokerNameStats is what the view derives per broker name from the topics.
type brokerNameStats struct {
	topics   int
	writable int
}

// viewIndex is the per-snapshot derived part of the view.
type viewIndex struct {
	of       *snapshot
	topics   []string // sorted
	byBroker map[string]brokerNameStats

	// orders are the topic orders asked of this snapshot other than by
	// name with every topic (topic_order.go), at most maxTopicOrders.
	ordersMu sync.Mutex
	orders   map[topicOrderKey][]string
}

// index returns the view index of s, building it when the snapshot changed.
func (m *Manager) index(s *snapshot) *viewIndex {
	if idx := m.views.Load(); idx != nil && idx.of == s {
		return idx
	}
	idx := &viewIndex{of: s, topics: make([]string, 0, s.topics.len()), byBroker: map[string]brokerNameStats{}}
	for topic, entry := range s.topics.all() {
		idx.topics = append(idx.topics, topic)
		for _, qd := range entry.queueDatas {
			st := idx.byBroker[qd.BrokerName]
			st.topics++
			if qd.Perm&PermWrite != 0 {
				st.writable++
			}
			idx.byBroker[qd.BrokerName] = st
		}
	}
	// Natural order (T-2 before T-10): the dashboard's default topic order
	// and the debug dump's.
	slices.SortFunc(idx.topics, NaturalCompare)
	m.views.Store(idx)
	return idx
}

// LiveBrokers returns every live broker, by cluster then address.
func (m *Manager) LiveBrokers() []LiveBrokerView {
	s := m.current.Load()
	idx := m.index(s)
	views := make([]LiveBrokerView, 0, s.live.len())
	for _, live := range s.live.all() {
		views = append(views, liveView(s, idx, live))
	}
	slices.SortFunc(views, func(a, b LiveBrokerView) int {
		if c := strings.Compare(a.Cluster, b.Cluster); c != 0 {
			return c
		}
		return strings.Compare(a.BrokerAddr, b.BrokerAddr)
	})
	return views
}

// LiveBroker returns the live brokers at addr (one per cluster it
// registered in; usually one).
func (m *Manager) LiveBroker(addr string) []LiveBrokerView {
	var found []LiveBrokerView
	for _, v := range m.LiveBrokers() {
		if v.BrokerAddr == addr {
			found = append(found, v)
		}
	}
	return found
}

func liveView(s *snapshot, idx *viewIndex, live *liveBroker) LiveBrokerView {
	v := LiveBrokerView{
		Cluster: live.key.cluster, BrokerName: live.brokerName, BrokerAddr: live.key.addr, BrokerID: -1,
		HAServerAddr: live.haServerAddr, Version: live.version.Load(), DataVersion: live.dataVersion,
		HeartbeatTimeoutMillis: live.timeoutMillis, LastUpdateMillis: live.lastUpdateMillis.Load(),
		LastRegisterMillis: live.lastRegisterMillis.Load(), Conn: live.conn,
	}
	if group, ok := s.groups.get(live.brokerName); ok {
		v.ZoneName = group.data.ZoneName
		for id, addr := range group.data.BrokerAddrs {
			if addr == live.key.addr {
				v.BrokerID = id
			}
		}
	}
	st := idx.byBroker[live.brokerName]
	v.TopicCount = st.topics
	v.WritePermWiped = st.topics > 0 && st.writable == 0
	return v
}

// TopicFilter selects a page of topics.
type TopicFilter struct {
	Cluster  string // only topics with queue data on this cluster's broker names ("" all)
	Contains string // only topics whose name contains this ("" all)
	// NoSystem leaves out the system topics: Java's (IsSystemTopic) and the
	// cluster and broker names brokers create topics of.
	NoSystem bool
	SortBy   TopicSort
	Desc     bool // largest first (for TopicByName: Z to A, natural order reversed)
	Offset   int
	Limit    int // <= 0: no limit
}

// TopicSort is the column a topic page is sorted on; ties go by name.
type TopicSort int

// The columns of a topic page.
const (
	TopicByName    TopicSort = iota
	TopicByBrokers           // how many broker names hold queue data of it
	TopicByRead              // read queues over all its broker names
	TopicByWrite             // write queues over all its broker names
)

// TopicSummary is one topic of a topic page.
type TopicSummary struct {
	Topic          string
	BrokerNames    []string // sorted
	ReadQueueNums  int32    // over all its broker names
	WriteQueueNums int32
	Writable       bool // some broker name takes writes
	// WritableBrokers is how many of BrokerNames take writes: fewer than
	// all is a topic writable on only some brokers (one drained, say).
	WritableBrokers int
}

// TopicPage returns the topics f selects, sorted as f asks, from f.Offset
// for at most f.Limit, and how many f selects in all. The order is derived
// once per snapshot (topicOrder) and only the page is summarised, so a
// dashboard polling a sorted page of 100,000 topics walks them once per
// table change.
func (m *Manager) TopicPage(f TopicFilter) ([]TopicSummary, int) {
	s := m.current.Load()
	idx := m.index(s)
	order := idx.topics
	if f.NoSystem || f.SortBy != TopicByName || f.Desc {
		order = idx.topicOrder(topicOrderKey{by: f.SortBy, desc: f.Desc, noSystem: f.NoSystem})
	}
	var inCluster map[string]struct{}
	if f.Cluster != "" {
		inCluster = map[string]struct{}{}
		for _, name := range s.clusters[f.Cluster] {
			inCluster[name] = struct{}{}
		}
	}
	if f.Contains == "" && inCluster == nil { // no filter: the page is a slice of the order
		total := len(order)
		start, end := min(f.Offset, total), total
		if f.Limit > 0 {
			end = min(total, start+f.Limit)
		}
		var page []TopicSummary
		for _, topic := range order[start:end] {
			entry, _ := s.topics.get(topic)
			page = append(page, summarize(topic, entry))
		}
		return page, total
	}
	total := 0
	var page []TopicSummary
	for _, topic := range order {
		if f.Contains != "" && !strings.Contains(topic, f.Contains) {
			continue
		}
		if inCluster != nil {
			if entry, _ := s.topics.get(topic); !entry.servedBy(inCluster) {
				continue
			}
		}
		total++
		if total <= f.Offset || (f.Limit > 0 && len(page) >= f.Limit) {
			continue
		}
		entry, _ := s.topics.get(topic)
		page = append(page, summarize(topic, entry))
	}
	return page, total
}

// servedBy says whether one of names holds queue data of the topic.
func (e *topicEntry) servedBy(names map[string]struct{}) bool {
	for _, qd := range e.queueDatas {
		if _, ok := names[qd.BrokerName]; ok {
			return true
		}
	}
	return false
}

func summarize(topic string, entry *topicEntry) TopicSummary {
	sum := TopicSummary{Topic: topic, BrokerNames: make([]string, 0, len(entry.queueDatas))}
	for _, qd := range entry.queueDatas {
		sum.BrokerNames = append(sum.BrokerNames, qd.BrokerName)
		sum.ReadQueueNums += qd.ReadQueueNums
		sum.WriteQueueNums += qd.WriteQueueNums
		if qd.Perm&PermWrite != 0 {
			sum.Writable = true
			sum.WritableBrokers++
		}
	}
	return sum
}

// TopicQueueDatas returns every topic with its queue data, topics in natural
// order (NaturalCompare)
// (the whole topicQueueTable, for a debug dump).
func (m *Manager) TopicQueueDatas() ([]string, map[string][]QueueData) {
	s := m.current.Load()
	idx := m.index(s)
	table := make(map[string][]QueueData, len(idx.topics))
	for topic, entry := range s.topics.all() {
		table[topic] = slices.Clone(entry.queueDatas)
	}
	return slices.Clone(idx.topics), table
}
