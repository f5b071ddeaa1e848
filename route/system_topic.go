package route

import "strings"

// SystemTopicPrefix starts the names of the topics RocketMQ keeps for
// itself (Java's TopicValidator.SYSTEM_TOPIC_PREFIX).
const SystemTopicPrefix = "rmq_sys_"

// systemTopicNames are the fixed system topics of Java's TopicValidator:
// auto-creation's template, the schedule, benchmark, transaction, trace,
// self-test, offset-moved and RocksDB offset topics.
var systemTopicNames = map[string]struct{}{
	"TBW102": {}, "SCHEDULE_TOPIC_XXXX": {}, "BenchmarkTest": {}, "RMQ_SYS_TRANS_HALF_TOPIC": {},
	"RMQ_SYS_TRACE_TOPIC": {}, "RMQ_SYS_TRANS_OP_HALF_TOPIC": {}, "TRANS_CHECK_MAX_TIME_TOPIC": {},
	"SELF_TEST_TOPIC": {}, "OFFSET_MOVED_EVENT": {}, "CHECKPOINT_TOPIC": {},
}

// IsSystemTopic says whether Java counts topic as a system topic (its
// TopicValidator.isSystemTopic): one of the fixed names or under
// SystemTopicPrefix. The cluster and broker names, which brokers also
// create topics of, depend on the tables: TopicFilter.NoSystem adds them.
func IsSystemTopic(topic string) bool {
	if _, ok := systemTopicNames[topic]; ok {
		return true
	}
	return strings.HasPrefix(topic, SystemTopicPrefix)
}
