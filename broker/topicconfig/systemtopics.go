package topicconfig

import "github.com/gonamesrv/gonamesrv/route"

// Names of the system topics a Java broker creates at start (Java TopicValidator,
// PopAckConstants, MixAll.REPLY_TOPIC_POSTFIX).
const (
	AutoCreateTopicKeyTopic = "TBW102"
	SelfTestTopic           = "SELF_TEST_TOPIC"
	BenchmarkTopic          = "BenchmarkTest"
	OffsetMovedEventTopic   = "OFFSET_MOVED_EVENT"
	ScheduleTopic           = "SCHEDULE_TOPIC_XXXX"
	TraceTopic              = "RMQ_SYS_TRACE_TOPIC"
	TransHalfTopic          = "RMQ_SYS_TRANS_HALF_TOPIC"
	TransOpHalfTopic        = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
	ReplyTopicSuffix        = "_REPLY_TOPIC"
	ReviveTopicPrefix       = "rmq_sys_REVIVE_LOG_"
	SystemTopicPrefix       = "rmq_sys_"
)

// scheduleTopicQueueNums is the queue count of SCHEDULE_TOPIC_XXXX: one per
// delay level of a Java broker.
const scheduleTopicQueueNums = 18

// SystemTopicOptions are the broker settings that decide which system topics a
// broker carries, with the Java BrokerConfig key names.
type SystemTopicOptions struct {
	BrokerClusterName     string
	BrokerName            string
	AutoCreateTopicEnable bool   // adds TBW102 (perm 7)
	DefaultTopicQueueNums int32  // queue count of TBW102
	ClusterTopicEnable    bool   // the cluster-name topic is readable and writable
	BrokerTopicEnable     bool   // the broker-name topic is readable and writable
	TraceTopicEnable      bool   // adds MsgTraceTopicName
	MsgTraceTopicName     string // defaults to RMQ_SYS_TRACE_TOPIC
	ReviveQueueNum        int32  // queue count of the POP revive topic
}

// DefaultSystemTopicOptions returns the Java BrokerConfig defaults for a broker.
func DefaultSystemTopicOptions(clusterName, brokerName string) SystemTopicOptions {
	return SystemTopicOptions{
		BrokerClusterName:     clusterName,
		BrokerName:            brokerName,
		AutoCreateTopicEnable: true,
		DefaultTopicQueueNums: 8,
		ClusterTopicEnable:    true,
		BrokerTopicEnable:     true,
		MsgTraceTopicName:     TraceTopic,
		ReviveQueueNum:        8,
	}
}

// SystemTopics lists the topic configs a Java broker registers by default
// (TopicConfigManager's start-up set), so NameServers and tools see a Go broker
// exactly as they see a Java one.
func SystemTopics(opts SystemTopicOptions) []route.TopicConfig {
	withQueues := func(name string, queues, perm int32) route.TopicConfig {
		tc := route.NewTopicConfig(name)
		if queues > 0 {
			tc.ReadQueueNums, tc.WriteQueueNums = queues, queues
		}
		if perm >= 0 {
			tc.Perm = perm
		}
		return tc
	}
	const keepDefault = -1
	topics := []route.TopicConfig{withQueues(SelfTestTopic, 1, keepDefault)}
	if opts.AutoCreateTopicEnable {
		topics = append(topics, withQueues(AutoCreateTopicKeyTopic, opts.DefaultTopicQueueNums,
			route.PermInherit|route.PermRead|route.PermWrite))
	}
	topics = append(topics, withQueues(BenchmarkTopic, 1024, keepDefault))
	clusterPerm := route.PermInherit
	if opts.ClusterTopicEnable {
		clusterPerm |= route.PermRead | route.PermWrite
	}
	topics = append(topics, withQueues(opts.BrokerClusterName, 0, clusterPerm))
	brokerPerm := route.PermInherit
	if opts.BrokerTopicEnable {
		brokerPerm |= route.PermRead | route.PermWrite
	}
	topics = append(topics,
		withQueues(opts.BrokerName, 1, brokerPerm),
		withQueues(OffsetMovedEventTopic, 1, keepDefault),
		withQueues(ScheduleTopic, scheduleTopicQueueNums, keepDefault))
	if opts.TraceTopicEnable {
		name := opts.MsgTraceTopicName
		if name == "" {
			name = TraceTopic
		}
		topics = append(topics, withQueues(name, 1, keepDefault))
	}
	topics = append(topics,
		withQueues(opts.BrokerClusterName+ReplyTopicSuffix, 1, keepDefault),
		withQueues(ReviveTopicPrefix+opts.BrokerClusterName, opts.ReviveQueueNum, keepDefault),
		withQueues(route.SyncBrokerMemberGroupPrefix+opts.BrokerName, 1, route.PermInherit),
		withQueues(TransHalfTopic, 1, keepDefault),
		withQueues(TransOpHalfTopic, 1, keepDefault))
	return topics
}
