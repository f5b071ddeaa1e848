package topicconfig

import (
	"maps"
	"slices"
)

// SystemTopicNames lists the names this store counts as system topics,
// sorted: the answer to GET_SYSTEM_TOPIC_LIST_FROM_BROKER (Java answers its
// TopicValidator set, which a broker extends with its cluster and broker
// name topics).
func (s *Store) SystemTopicNames() []string {
	return slices.Sorted(maps.Keys(s.systemTopics))
}
