package route

import (
	"fmt"
	"testing"
	"time"
)

// manyTopics is the scale of issue 13's flood (20,000 topics).
func manyTopics(n int) []string {
	topics := make([]string, n)
	for i := range topics {
		topics[i] = fmt.Sprintf("topic-%05d", i)
	}
	return topics
}

// TestListAnswersAreCachedUntilTheTablesChange: every cached answer is the
// encoding of the uncached list; it is built once while nothing changes
// (heartbeats included) and rebuilt after a change.
func TestListAnswersAreCachedUntilTheTablesChange(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), "A", "B")
	check := func(when string) {
		t.Helper()
		lists := map[string]struct {
			cached []byte
			list   TopicList
		}{
			"all":      {m.AllTopicListJSON(), m.AllTopicList()},
			"cluster":  {m.TopicsByClusterJSON("Default_Cluster"), m.TopicsByCluster("Default_Cluster")},
			"unknown":  {m.TopicsByClusterJSON("nope"), m.TopicsByCluster("nope")},
			"system":   {m.SystemTopicListJSON(), m.SystemTopicList()},
			"unit":     {m.UnitTopicListJSON(), m.UnitTopicList()},
			"unitSub":  {m.HasUnitSubTopicListJSON(), m.HasUnitSubTopicList()},
			"unitSubU": {m.HasUnitSubUnUnitTopicListJSON(), m.HasUnitSubUnUnitTopicList()},
		}
		for name, l := range lists {
			if want := EncodeTopicList(nil, &l.list); string(l.cached) != string(want) {
				t.Errorf("%s: %s cached %s, want %s", when, name, l.cached, want)
			}
		}
		info := m.ClusterInfo()
		if want := EncodeClusterInfo(nil, &info); string(m.ClusterInfoJSON()) != string(want) {
			t.Errorf("%s: cluster info cached %s, want %s", when, m.ClusterInfoJSON(), want)
		}
	}
	check("first")
	first := m.AllTopicListJSON()
	m.Heartbeat("Default_Cluster", "127.0.0.1:10911", time.Now())
	if again := m.AllTopicListJSON(); &again[0] != &first[0] {
		t.Fatal("the answer was rebuilt although no table it reads changed")
	}
	registerNormal(t, m, defaultMaster().nextVersion(), "A", "B", "C")
	check("after a change")
	if again := m.AllTopicListJSON(); &again[0] == &first[0] {
		t.Fatal("the cached answer outlived the change")
	}
}

// TestListAnswersCostNothingWhileUnchanged reproduces the cost of issue 13:
// each GET_ALL_TOPIC_LIST built and encoded all 20,000 topics again (some
// 20,000 allocations and 300 KB a query, on the event loop). Now a query of
// unchanged tables allocates nothing.
func TestListAnswersCostNothingWhileUnchanged(t *testing.T) {
	m := NewManager(Config{})
	registerNormal(t, m, defaultMaster(), manyTopics(20000)...)
	for name, answer := range map[string]func() []byte{
		"all topics": m.AllTopicListJSON, "cluster info": m.ClusterInfoJSON,
		"cluster topics": func() []byte { return m.TopicsByClusterJSON("Default_Cluster") },
	} {
		answer()
		if allocs := testing.AllocsPerRun(20, func() { answer() }); allocs > 2 {
			t.Errorf("%s: %.0f allocations a query of unchanged tables, want none", name, allocs)
		}
	}
}
