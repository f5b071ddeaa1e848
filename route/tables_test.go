package route

import "testing"

func TestTopicEntryKeepsQueueDatasSortedAndImmutable(t *testing.T) {
	var e *topicEntry
	e = e.withQueueData(QueueData{BrokerName: "b", Perm: 6})
	e2 := e.withQueueData(QueueData{BrokerName: "a", Perm: 6}).withQueueData(QueueData{BrokerName: "c", Perm: 6})
	e3 := e2.withQueueData(QueueData{BrokerName: "b", Perm: 4})
	if len(e.queueDatas) != 1 || e2.queueDatas[1].Perm != 6 {
		t.Fatal("an older entry changed")
	}
	names := ""
	for _, qd := range e3.queueDatas {
		names += qd.BrokerName
	}
	if names != "abc" || e3.queueDatas[1].Perm != 4 {
		t.Fatalf("entry = %+v", e3.queueDatas)
	}
	if e3.withoutQueueData("x") != e3 || e.withoutQueueData("b") != nil {
		t.Fatal("withoutQueueData")
	}
}

func TestSameBrokerData(t *testing.T) {
	a := BrokerData{Cluster: "c", BrokerName: "b", BrokerAddrs: map[int64]string{0: "x"}}
	b := a
	b.BrokerAddrs = map[int64]string{0: "x"}
	if !sameBrokerData(&a, &b) {
		t.Fatal("equal groups differ")
	}
	b.BrokerAddrs = map[int64]string{1: "x"}
	if sameBrokerData(&a, &b) {
		t.Fatal("different ids equal")
	}
}
