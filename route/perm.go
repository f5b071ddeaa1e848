package route

// WipeWritePerm clears the write bit of brokerName's queue data in every
// topic (WIPE_WRITE_PERM_OF_BROKER, protocol.md 4.8) and returns how many
// topics have queue data for it, those already read-only included (quirk Q13
// reproduced). The change lasts until the broker registers a new
// DataVersion.
func (m *Manager) WipeWritePerm(brokerName string) int {
	return m.changePermByLock(brokerName, func(perm int32) int32 { return perm &^ PermWrite })
}

// AddWritePerm sets the perm of brokerName's queue data in every topic to
// exactly read+write (ADD_WRITE_PERM_OF_BROKER): inherit and priority bits
// are dropped, as Java does (Q13 reproduced). It returns the topic count.
func (m *Manager) AddWritePerm(brokerName string) int {
	return m.changePermByLock(brokerName, func(int32) int32 { return PermRead | PermWrite })
}

func (m *Manager) changePermByLock(brokerName string, change func(int32) int32) int {
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	count := t.changePerm(brokerName, change)
	t.commit()
	return count
}

// changePerm rewrites the perm of brokerName's queue data in each of its
// topics and returns the number of topics visited.
func (t *txn) changePerm(brokerName string, change func(int32) int32) int {
	topics := t.m.topicsOf(brokerName)
	for _, topic := range topics {
		entry, _ := t.view().topics.get(topic)
		qd, _ := entry.queueData(brokerName)
		qd.Perm = change(qd.Perm)
		t.putQueueData(topic, qd)
	}
	return len(topics)
}
