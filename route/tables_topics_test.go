package route

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

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

func TestBrokerIndexesShareOneCopyOfEachTopicName(t *testing.T) {
	m := NewManager(Config{})
	for i, name := range []string{"broker-a", "broker-b"} {
		// each registration brings its own copy of the name, as a decoded body does
		topic := strings.Clone("SharedTopic")
		b := defaultMaster()
		b.name, b.addr, b.conn = name, fmt.Sprintf("10.0.0.%d:10911", i+1), ConnID(i+1)
		registerNormal(t, m, b, topic)
	}
	var data []*byte
	for _, name := range []string{"broker-a", "broker-b"} {
		for topic := range m.brokerTopics[name] {
			if topic == "SharedTopic" {
				data = append(data, unsafe.StringData(topic))
			}
		}
	}
	if len(data) != 2 || data[0] != data[1] {
		t.Fatalf("the two brokers' indexes must hold one copy of the name: %v", data)
	}
}
