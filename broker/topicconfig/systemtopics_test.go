package topicconfig

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestSystemTopicsMatchJavaDefaults(t *testing.T) {
	byName := map[string]route.TopicConfig{}
	for _, tc := range SystemTopics(DefaultSystemTopicOptions("DefaultCluster", "broker-a")) {
		if _, dup := byName[tc.TopicName]; dup {
			t.Fatalf("duplicate system topic %s", tc.TopicName)
		}
		byName[tc.TopicName] = tc
	}
	want := []struct {
		name         string
		queues, perm int32
	}{
		{"SELF_TEST_TOPIC", 1, 6},
		{"TBW102", 8, 7},
		{"BenchmarkTest", 1024, 6},
		{"DefaultCluster", 16, 7},
		{"broker-a", 1, 7},
		{"OFFSET_MOVED_EVENT", 1, 6},
		{"SCHEDULE_TOPIC_XXXX", 18, 6},
		{"DefaultCluster_REPLY_TOPIC", 1, 6},
		{"rmq_sys_REVIVE_LOG_DefaultCluster", 8, 6},
		{"rmq_sys_SYNC_BROKER_MEMBER_broker-a", 1, 1},
		{"RMQ_SYS_TRANS_HALF_TOPIC", 1, 6},
		{"RMQ_SYS_TRANS_OP_HALF_TOPIC", 1, 6},
	}
	if len(byName) != len(want) {
		t.Errorf("got %d system topics, want %d: %v", len(byName), len(want), byName)
	}
	for _, w := range want {
		tc, ok := byName[w.name]
		if !ok {
			t.Errorf("system topic %s missing", w.name)
			continue
		}
		if tc.ReadQueueNums != w.queues || tc.WriteQueueNums != w.queues || tc.Perm != w.perm {
			t.Errorf("%s = %d/%d perm %d, want %d/%d perm %d", w.name, tc.ReadQueueNums, tc.WriteQueueNums, tc.Perm, w.queues, w.queues, w.perm)
		}
	}
}

func TestSystemTopicsOptions(t *testing.T) {
	opts := DefaultSystemTopicOptions("C", "b")
	opts.AutoCreateTopicEnable = false
	opts.TraceTopicEnable = true
	opts.ClusterTopicEnable = false
	names := map[string]route.TopicConfig{}
	for _, tc := range SystemTopics(opts) {
		names[tc.TopicName] = tc
	}
	if _, ok := names["TBW102"]; ok {
		t.Error("TBW102 present with autoCreateTopicEnable=false")
	}
	if _, ok := names["RMQ_SYS_TRACE_TOPIC"]; !ok {
		t.Error("trace topic missing with traceTopicEnable=true")
	}
	if names["C"].Perm != route.PermInherit {
		t.Errorf("cluster topic perm = %d with clusterTopicEnable=false, want 1", names["C"].Perm)
	}
}
