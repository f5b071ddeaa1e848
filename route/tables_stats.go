package route

// IndexSizes counts the rows of the route tables and of the writer's
// indexes beside them, so a test or a metric can tell that nothing is kept
// for brokers that are gone.
type IndexSizes struct {
	Topics, Groups, Live int // topicQueueTable, brokerAddrTable, brokerLiveTable
	Mappings             int // static-topic mappings (topic, broker name)
	BrokerTopics         int // broker names with queue data (index)
	QueueDataEpochs      int // broker names with a queue-data epoch
	ConnBrokers          int // connections with live brokers
	BrokerMappings       int // broker names that wrote static mappings
	ExpiryEntries        int // entries filed for expiry, retired ones included
	UnregisterMarks      int // applied unregisters of open connections (unregister_order.go)
}

// IndexSizes returns the current sizes; it takes the writer lock.
func (m *Manager) IndexSizes() IndexSizes {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.current.Load()
	return IndexSizes{
		Topics: s.topics.len(), Groups: s.groups.len(), Live: s.live.len(),
		Mappings:        m.mappingCount(),
		BrokerTopics:    len(m.brokerTopics),
		QueueDataEpochs: len(m.queueDataEpoch),
		ConnBrokers:     len(m.connBrokers),
		BrokerMappings:  len(m.brokerMappings),
		ExpiryEntries:   m.expiry.size(),
		UnregisterMarks: len(m.unregisterMarks),
	}
}
