package route

import log "github.com/sirupsen/logrus"

// RegisterTopic applies REGISTER_TOPIC_IN_NAMESRV (protocol.md 4.4): each
// queue data replaces the one of its broker name in topic. Every broker name
// must be known; otherwise nothing is stored and it returns false (quirk Q12
// fixed: Java applies an existing topic's list up to the first unknown name).
// An empty list is a no-op.
func (m *Manager) RegisterTopic(topic string, queueDatas []QueueData) bool {
	if topic == "" || len(queueDatas) == 0 {
		return false
	}
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	for _, qd := range queueDatas {
		if _, ok := t.view().groups.get(qd.BrokerName); !ok {
			m.logLater(log.WarnLevel, log.Fields{"topic": topic, "brokerName": qd.BrokerName},
				"register topic names an unknown broker; ignored")
			return false
		}
	}
	for _, qd := range queueDatas {
		t.putQueueData(topic, qd)
	}
	t.commit()
	return true
}
