package route

import (
	"maps"
	"slices"
)

// snapshot is one immutable state of all route tables. Readers load the
// current one with one atomic load and never wait; the writer (holding
// Manager.mu) builds the next one in a txn and publishes it with one atomic
// store. Unchanged parts are shared between snapshots.
type snapshot struct {
	// queueDatas counts the queue data of every topic, kept by the txn
	// methods of tables_topics.go, so metrics never walk the table.
	queueDatas int

	topics   cowMap[string, *topicEntry]         // topicQueueTable
	groups   cowMap[string, *brokerGroup]        // brokerAddrTable
	live     cowMap[brokerAddrInfo, *liveBroker] // brokerLiveTable
	clusters map[string][]string                 // clusterAddrTable: cluster -> sorted broker names
	filters  *filterTable                        // filterServerTable
	mappings map[string]*topicMapping            // topicQueueMappingInfoTable
	cfg      Config
	// listsVersion changes with every commit that changes topics, groups
	// or clusters: the cached list answers of lists_cache.go are keyed by it.
	listsVersion uint64
	// routesVersion changes with every commit that changes what the
	// brokerDatas of a route read besides its topic's entry (the groups and
	// the settings; also the static-topic mappings and filter servers, which
	// RouteJSON reads apart): the brokerDatas each entry caches for
	// RouteJSON are keyed by it. A topic's own changes make a new entry.
	routesVersion uint64
}

func newSnapshot(cfg Config) *snapshot {
	return &snapshot{
		clusters: map[string][]string{},
		filters:  &filterTable{},
		mappings: map[string]*topicMapping{},
		cfg:      cfg,
	}
}

// txn is one write transaction: a private copy of the current snapshot,
// made on the first change, that commit publishes. Its methods are the only
// way tables change, so the writer-only indexes of Manager stay in step.
type txn struct {
	m        *Manager
	base     *snapshot
	next     *snapshot // nil until the first change
	topics   cowEditor[string, *topicEntry]
	groups   cowEditor[string, *brokerGroup]
	live     cowEditor[brokerAddrInfo, *liveBroker]
	clusters bool // next.clusters is a private copy
	mappings bool // next.mappings is a private copy
	routes   bool // filter servers or settings changed (see routesVersion)
	// freshTopics and freshNames hold what this transaction created and no
	// reader has seen yet, so later changes in the same transaction edit
	// them in place: removing 1,000 brokers from a topic they all serve
	// copies it once, not 1,000 times.
	freshTopics map[*topicEntry]struct{}
	freshNames  map[string]struct{} // clusters whose name list is fresh
}

// begin starts a transaction; the caller holds m.mu.
func (m *Manager) begin() *txn {
	return &txn{m: m, base: m.current.Load()}
}

// view is the state as this transaction has changed it so far.
func (t *txn) view() *snapshot {
	if t.next != nil {
		return t.next
	}
	return t.base
}

// edit returns the private copy, making it on first use.
func (t *txn) edit() *snapshot {
	if t.next == nil {
		next := *t.base
		t.next = &next
		t.topics.target = &t.next.topics
		t.groups.target = &t.next.groups
		t.live.target = &t.next.live
	}
	return t.next
}

// commit publishes the changes, if any; the caller still holds m.mu.
func (t *txn) commit() {
	if t.next != nil {
		if t.changesLists() {
			t.next.listsVersion = t.m.nextListsVersion()
		}
		if t.routes || t.mappings || t.groups.touched() {
			t.next.routesVersion = t.m.nextListsVersion() // one clock numbers both
		}
		t.m.current.Store(t.next)
	}
}

// setGroup stores or (nil) removes a broker group.
func (t *txn) setGroup(name string, g *brokerGroup) {
	t.edit()
	if g == nil {
		t.groups.delete(name)
		return
	}
	t.groups.set(name, g)
}

// ownClusters returns a private copy of the cluster table.
func (t *txn) ownClusters() map[string][]string {
	s := t.edit()
	if !t.clusters {
		s.clusters = maps.Clone(s.clusters)
		t.clusters = true
	}
	return s.clusters
}

// addClusterBroker adds brokerName to the set of cluster.
func (t *txn) addClusterBroker(cluster, brokerName string) {
	names := t.view().clusters[cluster]
	i, found := slices.BinarySearch(names, brokerName)
	if found {
		return
	}
	t.ownClusters()[cluster] = slices.Insert(t.ownNames(cluster, names), i, brokerName)
}

// removeClusterBroker removes brokerName from the set of cluster, and the
// cluster when its set becomes empty.
func (t *txn) removeClusterBroker(cluster, brokerName string) {
	names, ok := t.view().clusters[cluster]
	if !ok {
		return
	}
	i, found := slices.BinarySearch(names, brokerName)
	if !found {
		return
	}
	if len(names) == 1 {
		delete(t.ownClusters(), cluster)
		return
	}
	t.ownClusters()[cluster] = slices.Delete(t.ownNames(cluster, names), i, i+1)
}

// ownNames returns a name list of cluster this transaction may edit in place.
func (t *txn) ownNames(cluster string, names []string) []string {
	if _, fresh := t.freshNames[cluster]; fresh {
		return names
	}
	if t.freshNames == nil {
		t.freshNames = map[string]struct{}{}
	}
	t.freshNames[cluster] = struct{}{}
	return slices.Clone(names)
}

// setFilterServers stores (non-empty) or removes the filter servers of key.
func (t *txn) setFilterServers(key brokerAddrInfo, servers []string) {
	current := t.view().filters.servers
	old, had := current[key]
	if len(servers) == 0 && !had {
		return
	}
	if len(servers) > 0 && had && slices.Equal(old, servers) {
		return
	}
	copied := maps.Clone(current)
	if copied == nil {
		copied = map[brokerAddrInfo][]string{}
	}
	if len(servers) == 0 {
		delete(copied, key)
	} else {
		copied[key] = append([]string(nil), servers...)
	}
	t.edit().filters = &filterTable{servers: copied}
	t.routes = true
}

// setMapping stores the static-topic mapping of (topic, info.Bname).
func (t *txn) setMapping(topic string, info TopicQueueMappingInfo) {
	current := t.view().mappings[topic]
	byBroker := map[string]TopicQueueMappingInfo{}
	if current != nil {
		maps.Copy(byBroker, current.byBroker)
	}
	byBroker[info.Bname] = info
	s := t.edit()
	if !t.mappings {
		s.mappings = maps.Clone(s.mappings)
		t.mappings = true
	}
	s.mappings[topic] = &topicMapping{byBroker: byBroker}
	t.m.mappingEpoch++
}
