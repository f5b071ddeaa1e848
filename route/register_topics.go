package route

// topicsApplied records what step 11 did for the live entry.
type topicsApplied struct {
	ran        bool   // false: skipped, the stored topics were already current
	epoch      uint64 // queueDataEpoch of the broker name afterwards
	body       uint64 // the BodyFingerprint applied
	withDelete bool   // deleteTopicWithBrokerRegistration was on
	full       fullTableApply
}

// topicTableCurrent says whether applying the topic table of r would change
// nothing: its body is the very one the broker's last registration applied
// (same fingerprint, same DataVersion), and the broker name's queue data has
// not changed since (no DELETE_TOPIC, no unregistration cleanup, no
// REGISTER_TOPIC, no perm change). Java re-checks every topic for missing
// queue data; this gives the same answer in O(1), which is what makes a
// periodic re-registration of a 10,000-topic broker cheap. A body that
// differs with the same DataVersion (split registration) is never skipped.
func (m *Manager) topicTableCurrent(prev *liveBroker, r *registration, cfg Config) bool {
	return r.req.BodyFingerprint != 0 && prev != nil && prev.appliedTopics &&
		prev.appliedBody == r.req.BodyFingerprint && prev.dataVersion == r.dv &&
		prev.appliedEpoch == m.queueDataEpoch[r.req.BrokerName] &&
		(prev.appliedWithDelete || !cfg.DeleteTopicWithBrokerRegistration)
}

// fullTableCurrent says whether writing every topic of r's table, as Java
// does for a new DataVersion, would change nothing: the table (the body
// without its DataVersion, TableFingerprint) is the one this broker last
// wrote in full under the same broker name, with the same read-only rule
// (wipeWrite), and since then no queue data of that broker name changed
// (perm changes, DELETE_TOPIC, REGISTER_TOPIC, unregistration cleanup, or
// another member of the group writing its table all move queueDataEpoch),
// no static mapping was written if the table has any, and topic deletion
// was not turned on. This is the registration a broker sends after an
// updateBrokerConfig, and the one Java's JMH brokers send.
func (m *Manager) fullTableCurrent(prev *liveBroker, r *registration, wipeWrite bool, cfg Config) bool {
	if prev == nil {
		return false
	}
	full := &prev.fullApply
	return r.req.TableFingerprint != 0 && full.table == r.req.TableFingerprint &&
		full.brokerName == r.req.BrokerName && full.epoch == m.queueDataEpoch[r.req.BrokerName] &&
		full.wipeWrite == wipeWrite && (full.withDelete || !cfg.DeleteTopicWithBrokerRegistration) &&
		(!full.hasMappings || full.mappingEpoch == m.mappingEpoch)
}

// topicRole is step 10 as it will come out for req in a group whose
// addresses are addrs, before or after steps 6 and 9 (an address req
// registers under another id does not count): whether the broker applies
// its topic table (master or prime slave) and whether it does so read-only
// (a prime slave of a group with acting master enabled).
func topicRole(addrs map[int64]string, req *RegisterBrokerRequest) (applies, wipeWrite bool) {
	if req.BrokerID == MasterID {
		return true, false
	}
	if req.EnableActingMaster == nil {
		return false, false
	}
	for id, addr := range addrs {
		if id < req.BrokerID && addr != req.BrokerAddr {
			return false, false // a smaller id stays: not the prime slave
		}
	}
	return true, *req.EnableActingMaster
}

// canSkipTopicTable checks, before anything changes, that a registration
// sent without its body (UndecodedDataVersion) may proceed: the address is
// already the member under that id, and either its stored DataVersion and
// body are the same (a periodic re-registration) or its body differs only
// in the DataVersion from the last one read (same filter servers); and if
// it is the master or the prime slave its topics are current by the
// matching rule.
func (m *Manager) canSkipTopicTable(s *snapshot, r *registration) bool {
	req := r.req
	group, ok := s.groups.get(req.BrokerName)
	if !ok || group.data.BrokerAddrs[req.BrokerID] != req.BrokerAddr {
		return false
	}
	prev, ok := s.live.get(r.key)
	if !ok {
		return false
	}
	applies, wipeWrite := topicRole(group.data.BrokerAddrs, req)
	if prev.dataVersion == r.dv && (!applies || m.topicTableCurrent(prev, r, s.cfg)) {
		return true
	}
	sameTable := req.TableFingerprint != 0 && prev.tableFingerprint == req.TableFingerprint
	return sameTable && (!applies || m.fullTableCurrent(prev, r, wipeWrite, s.cfg))
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
	if !first && m.topicTableCurrent(prev, r, cfg) {
		return &topicsApplied{}
	}
	if !first && m.fullTableCurrent(prev, r, wipeWrite, cfg) {
		// Writing the table again would store what is stored: the records
		// stay valid and the broker's body now counts as applied.
		return &topicsApplied{ran: true, epoch: m.queueDataEpoch[brokerName], body: r.req.BodyFingerprint,
			withDelete: prev.fullApply.withDelete, full: prev.fullApply}
	}
	if r.wrapper == nil {
		return &topicsApplied{} // not reached: canSkipTopicTable checked one of the two rules
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
	var y yielder
	for _, config := range table {
		y.tick()
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
			t.m.noteMapping(brokerName, topic, info.Bname)
		}
	}
	applied := &topicsApplied{ran: true, epoch: m.queueDataEpoch[brokerName], body: r.req.BodyFingerprint,
		withDelete: cfg.DeleteTopicWithBrokerRegistration}
	switch {
	case first || versionChanged:
		applied.full = fullTableApply{table: r.req.TableFingerprint, brokerName: brokerName,
			epoch: applied.epoch, wipeWrite: wipeWrite, withDelete: cfg.DeleteTopicWithBrokerRegistration,
			hasMappings: len(r.wrapper.TopicQueueMappingInfoMap) > 0, mappingEpoch: m.mappingEpoch}
	case prev != nil:
		// Only missing topics were written: the full record stays valid
		// exactly when that changed nothing (the epoch did not move).
		applied.full = prev.fullApply
	}
	return applied
}
