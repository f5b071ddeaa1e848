package route

import (
	"fmt"
	"testing"
)

// viewAtScale is a manager with 1,000 brokers (500 groups of a master and a
// slave) serving 40,000 topics, 80 per group: the dashboard's target size.
func viewAtScale(b *testing.B) *Manager {
	b.Helper()
	m := NewManager(Config{})
	for g := range 500 {
		var configs []TopicConfig
		for i := range 80 {
			configs = append(configs, topicConfig(fmt.Sprintf("T%03d-%02d", g, i), 8, PermRead|PermWrite))
		}
		for id := range int64(2) {
			br := brokerInfo{cluster: fmt.Sprintf("c%d", g%4), name: fmt.Sprintf("broker-%03d", g),
				addr: fmt.Sprintf("10.0.%d.%d:10911", g/200, (g%200)*2+int(id)), id: id, conn: ConnID(g*2 + int(id) + 1)}
			mustRegister(b, m, br.request(configs...))
		}
	}
	return m
}

// BenchmarkTopicPage is one dashboard page of topics: with the index of
// the snapshot cached (the common case), and rebuilt (after a table change).
func BenchmarkTopicPage(b *testing.B) {
	m := viewAtScale(b)
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			m.TopicPage(TopicFilter{Offset: 20000, Limit: 50})
		}
	})
	b.Run("rebuilt", func(b *testing.B) {
		for b.Loop() {
			m.views.Store(nil)
			m.TopicPage(TopicFilter{Offset: 20000, Limit: 50})
		}
	})
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			m.TopicPage(TopicFilter{Contains: "T250-", Limit: 50})
		}
	})
}

// BenchmarkTopicPageSorted is the dashboard's default page (system topics
// left out) and a page sorted on read queues: each reads every topic.
func BenchmarkTopicPageSorted(b *testing.B) {
	m := viewAtScale(b)
	b.Run("no-system", func(b *testing.B) {
		for b.Loop() {
			m.TopicPage(TopicFilter{NoSystem: true, Limit: 50})
		}
	})
	b.Run("by-read-desc", func(b *testing.B) {
		for b.Loop() {
			m.TopicPage(TopicFilter{NoSystem: true, SortBy: TopicByRead, Desc: true, Limit: 50})
		}
	})
}

// BenchmarkLiveBrokers is the dashboard's broker list at 1,000 brokers.
func BenchmarkLiveBrokers(b *testing.B) {
	m := viewAtScale(b)
	for b.Loop() {
		m.LiveBrokers()
	}
}
