package route

import "testing"

func TestRegisterTopicReplacesQueueDataAsReceived(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "T")
	qd := QueueData{BrokerName: "Default_Broker", ReadQueueNums: 3, WriteQueueNums: 2, Perm: 4, TopicSysFlag: FlagUnit}
	if !m.RegisterTopic("T", []QueueData{qd}) || mustRoute(t, m, "T").QueueDatas[0] != qd {
		t.Fatal("queue data not stored as received")
	}
	if m.RegisterTopic("T", nil) || m.RegisterTopic("", []QueueData{qd}) {
		t.Fatal("empty input accepted")
	}
}
