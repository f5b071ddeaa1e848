package route

import (
	"sync"
)

// The list answers (all topics, the topics of a cluster, the unit lists,
// cluster info) cost O(topics) or O(brokers) to build and encode: with
// 20,000 topics a pipelined flood of GET_ALL_TOPIC_LIST_FROM_NAMESERVER kept
// an event loop busy building the same bytes again and again, and route
// queries on that loop waited seconds. Each answer is built once per state
// of the tables it reads and kept encoded until they change.

// listKind names one cached list answer.
type listKind uint8

const (
	listAllTopics listKind = iota
	listClusterTopics
	listSystemTopics
	listUnitTopics
	listHasUnitSubTopics
	listHasUnitSubUnUnitTopics
	listClusterInfo
)

type listKey struct {
	kind    listKind
	cluster string // listClusterTopics only
}

// listCache holds the encoded answers of one listsVersion. Its lock is held
// for map operations only, never while an answer is built.
type listCache struct {
	mu      sync.Mutex
	version uint64
	answers map[listKey][]byte
}

// changesLists reports whether this transaction changed a table the list
// answers read: topics, broker groups or clusters (the live table, which
// every heartbeat changes, is not one of them).
func (t *txn) changesLists() bool {
	return t.clusters || t.topics.touched() || t.groups.touched()
}

// touched reports whether the editor changed any shard.
func (e *cowEditor[K, V]) touched() bool {
	for _, owned := range e.owned {
		if owned {
			return true
		}
	}
	return false
}

// nextListsVersion returns a fresh version; the caller holds m.mu.
func (m *Manager) nextListsVersion() uint64 {
	m.listsClock++
	return m.listsClock
}

// cachedAnswer returns the answer of key for snapshot s, building it with
// build when the cache holds none for s's version. The bytes are shared by
// every caller and must not be modified.
func (m *Manager) cachedAnswer(s *snapshot, key listKey, build func(*snapshot) []byte) []byte {
	c := &m.lists
	c.mu.Lock()
	if c.version == s.listsVersion && c.answers != nil {
		if answer, ok := c.answers[key]; ok {
			c.mu.Unlock()
			return answer
		}
	}
	c.mu.Unlock()
	answer := build(s)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != s.listsVersion || c.answers == nil {
		if s.listsVersion < c.version && c.answers != nil {
			return answer // built from an older snapshot than the cache's: do not go back
		}
		c.version, c.answers = s.listsVersion, map[listKey][]byte{}
	}
	c.answers[key] = answer
	return answer
}

func encodedTopicList(list func(*snapshot) TopicList) func(*snapshot) []byte {
	return func(s *snapshot) []byte {
		topics := list(s)
		return EncodeTopicList(nil, &topics)
	}
}

// AllTopicListJSON is the encoded body of AllTopicList, cached (see above).
func (m *Manager) AllTopicListJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listAllTopics}, encodedTopicList(allTopics))
}

// TopicsByClusterJSON is the encoded body of TopicsByCluster, cached for the
// clusters that exist.
func (m *Manager) TopicsByClusterJSON(cluster string) []byte {
	s := m.current.Load()
	build := encodedTopicList(func(s *snapshot) TopicList { return topicsByCluster(s, cluster) })
	if len(s.clusters[cluster]) == 0 {
		return build(s) // unknown names are not cached: a client could send any number
	}
	return m.cachedAnswer(s, listKey{kind: listClusterTopics, cluster: cluster}, build)
}

// SystemTopicListJSON is the encoded body of SystemTopicList, cached.
func (m *Manager) SystemTopicListJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listSystemTopics}, encodedTopicList(systemTopics))
}

// UnitTopicListJSON is the encoded body of UnitTopicList, cached.
func (m *Manager) UnitTopicListJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listUnitTopics}, encodedTopicList(unitTopics))
}

// HasUnitSubTopicListJSON is the encoded body of HasUnitSubTopicList, cached.
func (m *Manager) HasUnitSubTopicListJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listHasUnitSubTopics}, encodedTopicList(hasUnitSubTopics))
}

// HasUnitSubUnUnitTopicListJSON is the encoded body of
// HasUnitSubUnUnitTopicList, cached.
func (m *Manager) HasUnitSubUnUnitTopicListJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listHasUnitSubUnUnitTopics}, encodedTopicList(hasUnitSubUnUnitTopics))
}

// ClusterInfoJSON is the encoded GET_BROKER_CLUSTER_INFO body, cached.
func (m *Manager) ClusterInfoJSON() []byte {
	return m.cachedAnswer(m.current.Load(), listKey{kind: listClusterInfo}, func(s *snapshot) []byte {
		info := clusterInfo(s)
		return EncodeClusterInfo(nil, &info)
	})
}
