package route

import "slices"

// maxTopicOrders bounds the orders one snapshot keeps: each is a slice of
// every topic name (1.6 MB at 100,000 topics), and a dashboard asks for one
// or two; past the bound the kept ones are dropped.
const maxTopicOrders = 4

// topicOrderKey names one order of a snapshot's topics.
type topicOrderKey struct {
	by       TopicSort
	desc     bool
	noSystem bool
}

// topicOrder returns the snapshot's topics in k's order, derived on first
// use and kept with the index. Two requests racing for a new order may both
// derive it; the result is the same.
func (idx *viewIndex) topicOrder(k topicOrderKey) []string {
	idx.ordersMu.Lock()
	order, ok := idx.orders[k]
	idx.ordersMu.Unlock()
	if ok {
		return order
	}
	order = idx.deriveOrder(k)
	idx.ordersMu.Lock()
	if idx.orders == nil || len(idx.orders) >= maxTopicOrders {
		idx.orders = map[topicOrderKey][]string{}
	}
	idx.orders[k] = order
	idx.ordersMu.Unlock()
	return order
}

// deriveOrder sorts the topics k keeps on k's column, ties by name (A to Z
// whichever way the column goes).
func (idx *viewIndex) deriveOrder(k topicOrderKey) []string {
	s := idx.of
	var system map[string]struct{}
	if k.noSystem {
		system = map[string]struct{}{}
		for cluster, names := range s.clusters {
			system[cluster] = struct{}{}
			for _, name := range names {
				system[name] = struct{}{}
			}
		}
	}
	type keyed struct {
		topic string
		key   int64
	}
	picked := make([]keyed, 0, len(idx.topics))
	for _, topic := range idx.topics {
		if system != nil {
			if _, ok := system[topic]; ok || IsSystemTopic(topic) {
				continue
			}
		}
		var key int64
		if k.by != TopicByName {
			entry, _ := s.topics.get(topic)
			key = sortKey(entry, k.by)
		}
		picked = append(picked, keyed{topic, key})
	}
	if k.by != TopicByName {
		// idx.topics is in natural order (NaturalCompare), so a stable sort on the key leaves
		// ties by name.
		slices.SortStableFunc(picked, func(a, b keyed) int {
			switch {
			case a.key == b.key:
				return 0
			case (a.key < b.key) != k.desc:
				return -1
			}
			return 1
		})
	} else if k.desc {
		slices.Reverse(picked)
	}
	order := make([]string, len(picked))
	for i, p := range picked {
		order[i] = p.topic
	}
	return order
}

// sortKey is the number a topic is sorted on (0 for TopicByName, whose
// order is the index's).
func sortKey(e *topicEntry, by TopicSort) int64 {
	var key int64
	switch by {
	case TopicByBrokers:
		key = int64(len(e.queueDatas))
	case TopicByRead:
		for _, qd := range e.queueDatas {
			key += int64(qd.ReadQueueNums)
		}
	case TopicByWrite:
		for _, qd := range e.queueDatas {
			key += int64(qd.WriteQueueNums)
		}
	}
	return key
}
