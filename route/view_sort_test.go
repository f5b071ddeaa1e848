package route

import (
	"slices"
	"testing"
)

func pageTopics(page []TopicSummary) []string {
	names := make([]string, len(page))
	for i, p := range page {
		names[i] = p.Topic
	}
	return names
}

// TestTopicPageSortsAndHidesSystemTopics: a page sorted on broker count or
// queue numbers, largest first or not, ties by name, paged after sorting;
// NoSystem leaves out Java's system topics and the cluster and broker
// names, and the total counts what is left.
func TestTopicPageSortsAndHidesSystemTopics(t *testing.T) {
	m := NewManager(Config{})
	a := brokerInfo{cluster: "c1", name: "broker-a", addr: "10.0.0.1:10911", conn: 1}
	b := brokerInfo{cluster: "c1", name: "broker-b", addr: "10.0.0.2:10911", conn: 2}
	rw := PermRead | PermWrite
	mustRegister(t, m, a.request(topicConfig("Wide", 2, rw), topicConfig("Deep", 16, rw), topicConfig("Mid", 4, rw),
		topicConfig("TBW102", 8, rw), topicConfig("rmq_sys_SYNC_BROKER_MEMBER_broker-a", 1, rw),
		topicConfig("c1", 16, rw), topicConfig("broker-a", 1, rw)))
	mustRegister(t, m, b.request(topicConfig("Wide", 2, rw), topicConfig("Mid", 4, rw), topicConfig("broker-b", 1, rw)))

	user := TopicFilter{NoSystem: true}
	for _, tc := range []struct {
		f    TopicFilter
		want []string
	}{
		{user, []string{"Deep", "Mid", "Wide"}},
		{TopicFilter{NoSystem: true, Desc: true}, []string{"Wide", "Mid", "Deep"}},
		{TopicFilter{NoSystem: true, SortBy: TopicByBrokers, Desc: true}, []string{"Mid", "Wide", "Deep"}},
		{TopicFilter{NoSystem: true, SortBy: TopicByBrokers}, []string{"Deep", "Mid", "Wide"}},
		{TopicFilter{NoSystem: true, SortBy: TopicByRead}, []string{"Wide", "Mid", "Deep"}},
		{TopicFilter{NoSystem: true, SortBy: TopicByWrite, Desc: true}, []string{"Deep", "Mid", "Wide"}},
		{TopicFilter{NoSystem: true, SortBy: TopicByWrite, Desc: true, Offset: 1, Limit: 1}, []string{"Mid"}},
		{TopicFilter{SortBy: TopicByRead, Desc: true, Limit: 3}, []string{"Deep", "c1", "Mid"}},
	} {
		page, total := m.TopicPage(tc.f)
		if got := pageTopics(page); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.f, got, tc.want)
		}
		wantTotal := 3
		if !tc.f.NoSystem {
			wantTotal = 8
		}
		if total != wantTotal {
			t.Errorf("%+v: total %d, want %d", tc.f, total, wantTotal)
		}
	}
	if !IsSystemTopic("SCHEDULE_TOPIC_XXXX") || !IsSystemTopic(SyncBrokerMemberGroupPrefix+"x") || IsSystemTopic("%RETRY%group") {
		t.Error("IsSystemTopic disagrees with Java's TopicValidator")
	}
}

// TestTopicPageOrderFollowsTableChanges: a sorted order kept with one
// snapshot is not served after the tables change.
func TestTopicPageOrderFollowsTableChanges(t *testing.T) {
	m := NewManager(Config{})
	a := brokerInfo{cluster: "c1", name: "broker-a", addr: "10.0.0.1:10911", conn: 1}
	rw := PermRead | PermWrite
	mustRegister(t, m, a.request(topicConfig("Small", 2, rw), topicConfig("Large", 8, rw)))
	byRead := TopicFilter{NoSystem: true, SortBy: TopicByRead, Desc: true}
	for _, f := range []TopicFilter{byRead, {NoSystem: true}, {Desc: true}, {SortBy: TopicByWrite}, {SortBy: TopicByBrokers}} {
		m.TopicPage(f) // more orders than a snapshot keeps
	}
	if page, _ := m.TopicPage(byRead); !slices.Equal(pageTopics(page), []string{"Large", "Small"}) {
		t.Fatalf("before: %v", pageTopics(page))
	}
	m.RegisterTopic("Small", []QueueData{{BrokerName: "broker-a", ReadQueueNums: 16, WriteQueueNums: 16, Perm: rw}})
	if page, total := m.TopicPage(byRead); !slices.Equal(pageTopics(page), []string{"Small", "Large"}) || total != 2 {
		t.Fatalf("after Small grew: %v of %d", pageTopics(page), total)
	}
}
