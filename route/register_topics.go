package route

// topicsApplied records what step 11 did for the live entry.
type topicsApplied struct {
	ran        bool   // false: skipped, the stored topics were already current
	epoch      uint64 // topicsEpoch of the broker name afterwards
	body       uint64 // the BodyFingerprint applied
	withDelete bool   // deleteTopicWithBrokerRegistration was on
}

// topicTableCurrent says whether applying the topic table of r would change
// nothing: its body is the very one the broker's last registration applied
// (same fingerprint, same DataVersion), and the set of topics holding the
// broker name's queue data has not changed since (no DELETE_TOPIC, no
// unregistration cleanup, no REGISTER_TOPIC). Java re-checks every topic for
// missing queue data; this gives the same answer in O(1), which is what makes
// a periodic re-registration of a 10,000-topic broker cheap. A body that
// differs with the same DataVersion (split registration) is never skipped.
func (m *Manager) topicTableCurrent(prev *liveBroker, r *registration, cfg Config) bool {
	return r.req.BodyFingerprint != 0 && prev != nil && prev.appliedTopics &&
		prev.appliedBody == r.req.BodyFingerprint && prev.dataVersion == r.dv &&
		prev.appliedEpoch == m.topicsEpoch[r.req.BrokerName] &&
		(prev.appliedWithDelete || !cfg.DeleteTopicWithBrokerRegistration)
}

// canSkipTopicTable checks, before anything changes, that a registration
// sent without its topic table (UnchangedDataVersion) may proceed: the
// address is already the member under that id, its stored DataVersion is the
// same, and if it is the master or the prime slave its topics are current.
func (m *Manager) canSkipTopicTable(s *snapshot, r *registration) bool {
	req := r.req
	group, ok := s.groups.get(req.BrokerName)
	if !ok || group.data.BrokerAddrs[req.BrokerID] != req.BrokerAddr {
		return false
	}
	prev, ok := s.live.get(r.key)
	if !ok || prev.dataVersion != r.dv {
		return false
	}
	smallestID, _ := minKey(group.data.BrokerAddrs)
	appliesTopics := req.BrokerID == MasterID || (req.EnableActingMaster != nil && req.BrokerID == smallestID)
	return !appliesTopics || m.topicTableCurrent(prev, r, s.cfg)
}

// applyTopicTable is step 11 of 4.3 for a master or prime slave: optional
// deletion of topics the broker no longer has, then the queue data of every
// topic that is new or whose broker changed its DataVersion, then the
// static-topic mappings. wipeWrite is set for a prime slave of a group with
// acting master enabled, whose queues are read-only.
func (m *Manager) applyTopicTable(t *txn, r *registration, prev *liveBroker, first, wipeWrite bool) *topicsApplied {
	brokerName := r.req.BrokerName
	cfg := t.view().cfg
	versionChanged := prev == nil || prev.dataVersion != r.dv
	if r.wrapper == nil || (!first && m.topicTableCurrent(prev, r, cfg)) {
		return &topicsApplied{}
	}
	table := r.wrapper.TopicConfigTable
	// 11.1: Java compares the map keys, not the topicName fields.
	if cfg.DeleteTopicWithBrokerRegistration && len(r.wrapper.TopicQueueMappingInfoMap) == 0 {
		for _, topic := range m.topicsOf(brokerName) {
			if _, keep := table[topic]; !keep {
				t.removeQueueData(topic, brokerName)
			}
		}
	}
	// 11.2: the route key is the config's topicName.
	for _, config := range table {
		if !first && !versionChanged {
			entry, _ := t.view().topics.get(config.TopicName)
			if _, has := entry.queueData(brokerName); has {
				continue // unchanged version: keep perm changes made since
			}
		}
		perm := config.Perm
		if wipeWrite {
			perm &^= PermWrite
		}
		t.putQueueData(config.TopicName, QueueData{
			BrokerName:     brokerName,
			ReadQueueNums:  config.ReadQueueNums,
			WriteQueueNums: config.WriteQueueNums,
			Perm:           perm,
			TopicSysFlag:   config.TopicSysFlag,
		})
	}
	// 11.3
	if first || versionChanged {
		for topic, info := range r.wrapper.TopicQueueMappingInfoMap {
			t.setMapping(topic, info)
		}
	}
	return &topicsApplied{ran: true, epoch: m.topicsEpoch[brokerName], body: r.req.BodyFingerprint,
		withDelete: cfg.DeleteTopicWithBrokerRegistration}
}
