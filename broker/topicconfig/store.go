// Package topicconfig is the broker's topic table: the topic configs it
// registers with the NameServers, the DataVersion that tells the NameServers
// whether anything changed, and their file topics.json in the Java format.
package topicconfig

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// staticSystemTopics are the names Java's TopicValidator always counts as system
// topics, whether or not this broker carries them.
var staticSystemTopics = []string{
	ScheduleTopic, BenchmarkTopic, TransHalfTopic, TraceTopic, TransOpHalfTopic,
	"TRANS_CHECK_MAX_TIME_TOPIC", SelfTestTopic, OffsetMovedEventTopic, "CHECKPOINT_TOPIC",
}

// Store holds one broker's topic configs and their DataVersion. Every change
// bumps the version and is written to the file before the call returns, so a
// registration never announces a version that a restart would lose.
type Store struct {
	file         *File            // nil: memory only (simulated brokers)
	now          func() time.Time // clock for DataVersion timestamps
	systemTopics map[string]bool  // refused by admin create/delete

	mu          sync.RWMutex // guards the fields below and serialises file writes
	topics      map[string]route.TopicConfig
	dataVersion route.DataVersion
}

// NewStore returns a store holding the given default topics (usually
// SystemTopics) with a fresh DataVersion (counter 0, timestamp now). file may be
// nil for a store that is never persisted; now may be nil for time.Now.
func NewStore(file *File, defaults []route.TopicConfig, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	s := &Store{
		file:         file,
		now:          now,
		systemTopics: make(map[string]bool, len(staticSystemTopics)+len(defaults)),
		topics:       make(map[string]route.TopicConfig, len(defaults)),
		dataVersion:  route.DataVersion{Timestamp: now().UnixMilli()},
	}
	for _, name := range staticSystemTopics {
		s.systemTopics[name] = true
	}
	for _, tc := range defaults {
		s.systemTopics[tc.TopicName] = true
		s.topics[tc.TopicName] = cloneTopicConfig(tc)
	}
	return s
}

// Load reads the file (or its backup) over the defaults, as the Java broker
// does at start: topics in the file replace defaults of the same name and the
// file's DataVersion becomes the current one. A missing file is not an error.
func (s *Store) Load() error {
	if s.file == nil {
		return nil
	}
	wrapper, found, err := s.file.Read()
	if err != nil {
		return fmt.Errorf("load topics: %w", err)
	}
	if !found {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tc := range wrapper.TopicConfigTable {
		s.topics[tc.TopicName] = cloneTopicConfig(tc)
	}
	s.dataVersion = wrapper.DataVersion
	return nil
}

// IsSystemTopic tells whether admin requests must leave topic alone (Java
// TopicValidator.isSystemTopic with this broker's own system topics).
func (s *Store) IsSystemTopic(topic string) bool {
	return s.systemTopics[topic] || strings.HasPrefix(topic, SystemTopicPrefix)
}

// Get returns the config of one topic.
func (s *Store) Get(topic string) (route.TopicConfig, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	tc, ok := s.topics[topic]
	return tc, ok
}

// Len returns the number of topics.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.topics)
}

// DataVersion returns the current version.
func (s *Store) DataVersion() route.DataVersion {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.dataVersion
}

// Wrapper returns a snapshot of the whole table with its version, the shape
// REGISTER_BROKER and GET_ALL_TOPIC_CONFIG send. The caller owns the map.
func (s *Store) Wrapper() route.TopicConfigSerializeWrapper {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return route.TopicConfigSerializeWrapper{
		DataVersion:      s.dataVersion,
		TopicConfigTable: maps.Clone(s.topics),
	}
}

// Put creates or replaces topic configs. It reports false, and changes
// nothing, when every config equals the stored one (Java answers such a
// request as an idempotent success without re-registering).
func (s *Store) Put(configs ...route.TopicConfig) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for _, tc := range configs {
		if old, ok := s.topics[tc.TopicName]; ok && topicConfigEqual(old, tc) {
			continue
		}
		s.topics[tc.TopicName] = cloneTopicConfig(tc)
		changed = true
	}
	if !changed {
		return false, nil
	}
	return true, s.commitLocked()
}

// Delete removes a topic; it reports false when the topic was not there.
func (s *Store) Delete(topic string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.topics[topic]; !ok {
		return false, nil
	}
	delete(s.topics, topic)
	return true, s.commitLocked()
}

// MarkOrder sets the order flag of every named topic this broker has, as a
// Java broker does with the ORDER_TOPIC_CONFIG table a NameServer returns on
// registration. It never clears the flag.
func (s *Store) MarkOrder(topics []string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for _, name := range topics {
		tc, ok := s.topics[name]
		if !ok || tc.Order {
			continue
		}
		tc.Order = true
		s.topics[name] = tc
		changed = true
	}
	if !changed {
		return false, nil
	}
	return true, s.commitLocked()
}

// ReplaceAll makes the table equal to a master's (slave synchronisation):
// topics the master lacks are removed, the others copied, and the local
// version bumped so the NameServers see the change.
func (s *Store) ReplaceAll(table map[string]route.TopicConfig) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := len(table) != len(s.topics)
	next := make(map[string]route.TopicConfig, len(table))
	for _, tc := range table {
		if old, ok := s.topics[tc.TopicName]; !ok || !topicConfigEqual(old, tc) {
			changed = true
		}
		next[tc.TopicName] = cloneTopicConfig(tc)
	}
	if !changed {
		return false, nil
	}
	s.topics = next
	return true, s.commitLocked()
}

// commitLocked bumps the version (Java DataVersion.nextVersion: counter + 1,
// timestamp now, state version 0 without a controller) and persists.
func (s *Store) commitLocked() error {
	s.dataVersion = route.DataVersion{
		Counter:   s.dataVersion.Counter + 1,
		Timestamp: s.now().UnixMilli(),
	}
	if s.file == nil {
		return nil
	}
	wrapper := route.TopicConfigSerializeWrapper{DataVersion: s.dataVersion, TopicConfigTable: s.topics}
	if err := s.file.Write(wrapper); err != nil {
		return fmt.Errorf("persist topics: %w", err)
	}
	return nil
}

// cloneTopicConfig copies the attribute map so stored configs never alias a
// caller's map; a nil map becomes empty, as Java writes `{}`.
func cloneTopicConfig(tc route.TopicConfig) route.TopicConfig {
	attrs := make(map[string]string, len(tc.Attributes))
	maps.Copy(attrs, tc.Attributes)
	tc.Attributes = attrs
	return tc
}

// topicConfigEqual compares every field Java's TopicConfig.equals compares.
func topicConfigEqual(a, b route.TopicConfig) bool {
	return a.TopicName == b.TopicName && a.ReadQueueNums == b.ReadQueueNums &&
		a.WriteQueueNums == b.WriteQueueNums && a.Perm == b.Perm &&
		a.TopicFilterType == b.TopicFilterType && a.TopicSysFlag == b.TopicSysFlag &&
		a.Order == b.Order && maps.Equal(a.Attributes, b.Attributes)
}
