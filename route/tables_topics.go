package route

import "slices"

// Every change to topicQueueTable goes through the three txn methods below,
// which keep Manager.brokerTopics and Manager.queueDataEpoch in step with it.

// putQueueData stores qd as the queue data of qd.BrokerName in topic and says
// whether anything changed (an equal queue data is left alone, as Java does).
func (t *txn) putQueueData(topic string, qd QueueData) bool {
	entry, _ := t.view().topics.get(topic)
	if entry != nil {
		topic = entry.name // the one copy of the name (see topicEntry.name)
	}
	old, had := entry.queueData(qd.BrokerName)
	if had && old == qd {
		return false
	}
	t.edit()
	if t.isFresh(entry) {
		i, _ := entry.queueDataIndex(qd.BrokerName)
		if had {
			entry.queueDatas[i] = qd
		} else {
			entry.queueDatas = slices.Insert(entry.queueDatas, i, qd)
		}
	} else {
		t.setTopic(topic, entry.withQueueData(qd))
	}
	if !had {
		t.next.queueDatas++
	}
	if had {
		t.m.touchQueueData(qd.BrokerName)
	} else {
		t.m.indexBrokerTopic(qd.BrokerName, topic, true)
	}
	return true
}

// removeQueueData removes brokerName's queue data from topic, and the topic
// when nothing is left.
func (t *txn) removeQueueData(topic, brokerName string) bool {
	return t.removeQueueDatas(topic, func(name string) bool { return name == brokerName }) > 0
}

// removeQueueDatas removes the queue data of every broker name gone says
// yes to, in one copy of the topic, and returns how many went.
func (t *txn) removeQueueDatas(topic string, gone func(brokerName string) bool) int {
	entry, ok := t.view().topics.get(topic)
	if !ok {
		return 0
	}
	removed := 0
	for _, qd := range entry.queueDatas {
		if gone(qd.BrokerName) {
			removed++
			t.m.indexBrokerTopic(qd.BrokerName, topic, false)
		}
	}
	if removed == 0 {
		return 0
	}
	kept := entry.queueDatas
	if !t.isFresh(entry) {
		kept = slices.Clone(kept)
	}
	kept = slices.DeleteFunc(kept, func(qd QueueData) bool { return gone(qd.BrokerName) })
	t.edit().queueDatas -= removed
	switch {
	case len(kept) == 0:
		t.topics.delete(topic)
	case t.isFresh(entry):
		entry.queueDatas = kept
	default:
		t.setTopic(entry.name, &topicEntry{queueDatas: kept})
	}
	return removed
}

// deleteTopic removes a topic with all its queue data.
func (t *txn) deleteTopic(topic string) bool {
	return t.removeQueueDatas(topic, func(string) bool { return true }) > 0
}

// setTopic stores an entry this transaction created under topic, which is
// the name the topic's previous entry holds when it had one (the callers
// have that entry in hand; see topicEntry.name).
func (t *txn) setTopic(topic string, entry *topicEntry) {
	if t.freshTopics == nil {
		t.freshTopics = map[*topicEntry]struct{}{}
	}
	t.freshTopics[entry] = struct{}{}
	entry.name = topic
	t.topics.set(topic, entry)
}

// isFresh says whether entry was created by this transaction.
func (t *txn) isFresh(entry *topicEntry) bool {
	_, fresh := t.freshTopics[entry]
	return entry != nil && fresh
}

// indexBrokerTopic records that brokerName now has (or no longer has) queue
// data in topic, and moves that broker name's queue-data epoch.
func (m *Manager) indexBrokerTopic(brokerName, topic string, present bool) {
	topics := m.brokerTopics[brokerName]
	if present {
		if topics == nil {
			topics = map[string]struct{}{}
			m.brokerTopics[brokerName] = topics
		}
		topics[topic] = struct{}{} // the entry's name: one copy for every broker's index
	} else {
		delete(topics, topic)
		if len(topics) == 0 {
			// The name has no queue data left: its epoch goes too, or every
			// broker name ever registered would stay in memory. Reading 0
			// later is safe: a record holding 0 was taken when the name had
			// no queue data either, and the clock never hands out 0 again.
			delete(m.brokerTopics, brokerName)
			delete(m.queueDataEpoch, brokerName)
			return
		}
	}
	m.touchQueueData(brokerName)
}

// touchQueueData moves brokerName's queue-data epoch: some of its queue data
// changed, so no earlier registration's record of it is current any more.
func (m *Manager) touchQueueData(brokerName string) {
	m.epochClock++
	m.queueDataEpoch[brokerName] = m.epochClock
}

// topicsOf lists the topics holding brokerName's queue data, a copy the
// caller may change the tables while walking.
func (m *Manager) topicsOf(brokerName string) []string {
	topics := m.brokerTopics[brokerName]
	list := make([]string, 0, len(topics))
	for topic := range topics {
		list = append(list, topic)
	}
	return list
}

// DeleteTopic removes a topic (DELETE_TOPIC_IN_NAMESRV). With a cluster name,
// only the queue data of that cluster's broker names goes, and the topic only
// when nothing is left; an unknown cluster changes nothing (protocol.md 4.9).
// The static-topic mapping stays (quirk Q18 reproduced: routes need queue
// data, and a broker re-creating the topic under the same data version gets
// its mapping back only this way).
func (m *Manager) DeleteTopic(topic, clusterName string) {
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	if clusterName == "" {
		t.deleteTopic(topic)
	} else {
		for _, brokerName := range t.view().clusters[clusterName] {
			t.removeQueueData(topic, brokerName)
		}
	}
	t.commit()
}
