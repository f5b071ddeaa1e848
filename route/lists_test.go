package route

import (
	"slices"
	"testing"
)

func TestTopicsByClusterUnknownClusterIsEmpty(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	if got := m.TopicsByCluster("nope"); got.TopicList == nil || len(got.TopicList) != 0 {
		t.Fatalf("unknown cluster = %+v", got)
	}
}

func TestBrokerMemberGroupIsACopy(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	group := m.BrokerMemberGroup("any", "Default_Broker")
	group[5] = "changed"
	if len(m.BrokerMemberGroup("any", "Default_Broker")) != 1 || len(m.BrokerMemberGroup("any", "unknown")) != 0 {
		t.Fatal("member group shares the table")
	}
}

func TestUnitListsReadTheFirstQueueDataByName(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	registerNormal(t, m, defaultMaster().withName("Z").withAddr("z:1"), "T")
	m.RegisterTopic("mixed", []QueueData{{BrokerName: "Default_Broker", TopicSysFlag: FlagUnit}, {BrokerName: "Z"}})
	if got := m.UnitTopicList().TopicList; !slices.Equal(got, []string{"mixed"}) {
		t.Fatalf("unit topics = %v", got)
	}
}
