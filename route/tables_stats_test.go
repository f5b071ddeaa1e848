package route

import "testing"

func TestIndexSizesFollowTheTables(t *testing.T) {
	m := NewManager(Config{})
	if got := m.IndexSizes(); got != (IndexSizes{}) {
		t.Fatalf("empty manager: %+v", got)
	}
	b := defaultMaster()
	registerNormal(t, m, b, "T")
	got := m.IndexSizes()
	if got.Live != 1 || got.Groups != 1 || got.Topics != 2 || got.BrokerTopics != 1 || got.QueueDataEpochs != 1 ||
		got.ConnBrokers != 1 || got.ExpiryEntries != 1 {
		t.Fatalf("one broker with two topics: %+v", got)
	}
	m.ConnectionClosed(b.conn)
	if got := m.IndexSizes(); got.Live != 0 || got.Groups != 0 || got.Topics != 0 || got.BrokerTopics != 0 ||
		got.QueueDataEpochs != 0 || got.ConnBrokers != 0 {
		t.Fatalf("after the broker left: %+v", got)
	}
}
