package route

import (
	"maps"
	"slices"
)

// The list queries below read one snapshot, so each answer is consistent
// (quirk Q25 fixed for cluster info), and return names sorted: Java returns
// hash order, which no client depends on.

// AllTopicList lists every topic (GET_ALL_TOPIC_LIST_FROM_NAMESERVER).
func (m *Manager) AllTopicList() TopicList { return allTopics(m.current.Load()) }

func allTopics(s *snapshot) TopicList {
	return topicsWhere(s, func(string, *topicEntry) bool { return true })
}

// TopicsByCluster lists the topics with queue data of at least one broker
// name of cluster (GET_TOPICS_BY_CLUSTER); an unknown cluster gives an empty
// list.
func (m *Manager) TopicsByCluster(cluster string) TopicList {
	return topicsByCluster(m.current.Load(), cluster)
}

func topicsByCluster(s *snapshot, cluster string) TopicList {
	names := s.clusters[cluster]
	if len(names) == 0 {
		return TopicList{TopicList: []string{}}
	}
	return topicsWhere(s, func(_ string, e *topicEntry) bool {
		for _, qd := range e.queueDatas {
			if _, found := slices.BinarySearch(names, qd.BrokerName); found {
				return true
			}
		}
		return false
	})
}

// SystemTopicList lists every cluster name and broker name of the cluster
// table (brokers create topics with those names), with BrokerAddr set to one
// broker address (GET_SYSTEM_TOPIC_LIST_FROM_NS): the smallest-id member of
// the first group, in Java's hash order of brokerAddrTable, that has one.
func (m *Manager) SystemTopicList() TopicList { return systemTopics(m.current.Load()) }

func systemTopics(s *snapshot) TopicList {
	seen := map[string]struct{}{}
	for cluster, names := range s.clusters {
		seen[cluster] = struct{}{}
		for _, name := range names {
			seen[name] = struct{}{}
		}
	}
	list := TopicList{TopicList: slices.Sorted(maps.Keys(seen))}
	groupNames := make([]string, 0, s.groups.len())
	for name := range s.groups.all() {
		groupNames = append(groupNames, name)
	}
	// The first group in Java's hash order, so the pick equals Java's.
	sortJavaHashOrder(groupNames, brokerAddrTableBins)
	for _, name := range groupNames {
		group, _ := s.groups.get(name)
		if id, ok := minKey(group.data.BrokerAddrs); ok {
			list.BrokerAddr = group.data.BrokerAddrs[id]
			break
		}
	}
	return list
}

// UnitTopicList lists unit topics (GET_UNIT_TOPIC_LIST). Java looks at the
// first queue data in hash order (quirk Q14); here the first by broker name,
// a deterministic choice, for all three unit lists.
func (m *Manager) UnitTopicList() TopicList { return unitTopics(m.current.Load()) }

func unitTopics(s *snapshot) TopicList {
	return topicsWhereFlags(s, func(flag int32) bool { return flag&FlagUnit != 0 })
}

// HasUnitSubTopicList lists topics with a unit subscription
// (GET_HAS_UNIT_SUB_TOPIC_LIST).
func (m *Manager) HasUnitSubTopicList() TopicList { return hasUnitSubTopics(m.current.Load()) }

func hasUnitSubTopics(s *snapshot) TopicList {
	return topicsWhereFlags(s, func(flag int32) bool { return flag&FlagUnitSub != 0 })
}

// HasUnitSubUnUnitTopicList lists non-unit topics with a unit subscription
// (GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST).
func (m *Manager) HasUnitSubUnUnitTopicList() TopicList {
	return hasUnitSubUnUnitTopics(m.current.Load())
}

func hasUnitSubUnUnitTopics(s *snapshot) TopicList {
	return topicsWhereFlags(s, func(flag int32) bool { return flag&FlagUnit == 0 && flag&FlagUnitSub != 0 })
}

// ClusterInfo returns brokerAddrTable and clusterAddrTable
// (GET_BROKER_CLUSTER_INFO) from one snapshot. The maps and slices inside are
// shared with the tables and must not be modified.
func (m *Manager) ClusterInfo() ClusterInfo { return clusterInfo(m.current.Load()) }

func clusterInfo(s *snapshot) ClusterInfo {
	info := ClusterInfo{
		BrokerAddrTable:  make(map[string]BrokerData, s.groups.len()),
		ClusterAddrTable: make(map[string][]string, len(s.clusters)),
	}
	for name, group := range s.groups.all() {
		info.BrokerAddrTable[name] = group.data
	}
	maps.Copy(info.ClusterAddrTable, s.clusters)
	return info
}

// BrokerMemberGroup returns a copy of the id -> address map of a broker
// group, empty when unknown (GET_BROKER_MEMBER_GROUP; the cluster name is
// only echoed by the daemon, as in Java).
func (m *Manager) BrokerMemberGroup(cluster, brokerName string) map[int64]string {
	group, ok := m.current.Load().groups.get(brokerName)
	if !ok {
		return map[int64]string{}
	}
	return maps.Clone(group.data.BrokerAddrs)
}

func topicsWhereFlags(s *snapshot, keep func(int32) bool) TopicList {
	return topicsWhere(s, func(_ string, e *topicEntry) bool { return keep(e.queueDatas[0].TopicSysFlag) })
}

func topicsWhere(s *snapshot, keep func(string, *topicEntry) bool) TopicList {
	topics := []string{}
	for topic, entry := range s.topics.all() {
		if keep(topic, entry) {
			topics = append(topics, topic)
		}
	}
	slices.Sort(topics)
	return TopicList{TopicList: topics}
}
