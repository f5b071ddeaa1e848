package route

import "testing"

func TestTopicIndexFollowsEveryChange(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T", "U")
	if got := len(m.brokerTopics["Default_Broker"]); got != 3 {
		t.Fatalf("indexed topics = %d, want 3", got)
	}
	m.DeleteTopic("T", "")
	m.DeleteTopic("U", "Default_Cluster")
	m.DeleteTopic("baseTopic", "unknown-cluster")
	if _, ok := m.brokerTopics["Default_Broker"]["T"]; ok || len(m.brokerTopics["Default_Broker"]) != 1 {
		t.Fatalf("index = %v", m.brokerTopics)
	}
	if got := m.AllTopicList().TopicList; len(got) != 1 || got[0] != "baseTopic" {
		t.Fatalf("topics = %v", got)
	}
}
