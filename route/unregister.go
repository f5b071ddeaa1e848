package route

import (
	"math"
	"slices"

	log "github.com/sirupsen/logrus"
)

// UnfencedGeneration in UnregisterRequest.Generation applies the request
// whatever happened since (Java's unconditional behaviour).
const UnfencedGeneration uint64 = math.MaxUint64

// UnregisterRequest is one UNREGISTER_BROKER (protocol.md 2.5, 4.5).
type UnregisterRequest struct {
	ClusterName string
	BrokerAddr  string
	BrokerName  string
	BrokerID    int64
	// Generation is Generation(ClusterName, BrokerAddr) when the request
	// arrived; the request is dropped if the live entry has changed since (the
	// broker registered again), so a late unregister never removes a broker
	// that came back (apache/rocketmq#11043). UnfencedGeneration disables it.
	Generation uint64
	// Conn and ArrivalSeq are the connection the request came in on and its
	// arrival on it (0: unknown). On that connection arrival order decides
	// instead of Generation (see unregisterStale).
	Conn       ConnID
	ArrivalSeq uint64
	// ConnOpen, when set, says under the writer lock whether Conn is still
	// open; an unregister applied after its connection's close leaves no
	// mark (nothing would drop it).
	ConnOpen func() bool
}

// unregisterItem is one removal of a batch.
type unregisterItem struct {
	req        UnregisterRequest
	groupKnown bool // false: only the live and filter entries go (no group held the address)
}

// unregisterOutcome is what a batch did.
type unregisterOutcome struct {
	removedLive []*liveBroker                // live entries that went
	notify      map[string]MinBrokerIDChange // by broker name
}

// UnregisterBrokers applies a batch of unregistrations in one write (the Java
// BatchUnregistrationService worker's unit of work) and returns the
// notifications to send. Requests with a stale generation or a missing field
// are skipped and logged; the rest of the batch still applies (quirk Q17
// fixed).
func (m *Manager) UnregisterBrokers(reqs []UnregisterRequest) []MinBrokerIDChange {
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	items := make([]unregisterItem, 0, len(reqs))
	for _, req := range reqs {
		if req.ClusterName == "" || req.BrokerAddr == "" || req.BrokerName == "" {
			m.logLater(log.WarnLevel, log.Fields{"request": req}, "unregister request with a missing field skipped")
			continue
		}
		items = append(items, unregisterItem{req: req, groupKnown: true})
	}
	outcome := m.unregister(t, items, true)
	t.commit()
	return sortedChanges(outcome.notify)
}

// unregister applies items (4.5 per request, then the after-batch cleanup).
// With fenced set, an item whose generation no longer matches is skipped.
func (m *Manager) unregister(t *txn, items []unregisterItem, fenced bool) unregisterOutcome {
	outcome := unregisterOutcome{}
	removedNames := map[string]struct{}{}
	reducedNames := map[string]struct{}{}
	offline := map[string]string{} // broker name -> address whose removal changed its min id
	for _, item := range items {
		req := item.req
		key := brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr}
		if fenced && t.unregisterStale(req) {
			m.logLater(log.InfoLevel, log.Fields{"cluster": req.ClusterName, "brokerAddr": req.BrokerAddr,
				"generation": req.Generation}, "stale unregister ignored: the broker registered again")
			continue
		}
		if fenced {
			m.markUnregistered(req)
			// The one line of an applied UNREGISTER_BROKER; closes and
			// expiries are logged by the daemon, with their cause.
			m.logLater(log.InfoLevel, log.Fields{"cluster": req.ClusterName, "brokerName": req.BrokerName,
				"brokerAddr": req.BrokerAddr, "brokerId": req.BrokerID}, "broker unregistered")
		}
		if entry := t.removeLive(key); entry != nil {
			outcome.removedLive = append(outcome.removedLive, entry)
		}
		t.setFilterServers(key, nil)
		if !item.groupKnown {
			continue
		}
		removedName, minChanged := t.removeMember(req)
		switch {
		case removedName:
			t.removeClusterBroker(req.ClusterName, req.BrokerName)
			removedNames[req.BrokerName] = struct{}{}
		default:
			reducedNames[req.BrokerName] = struct{}{}
			if minChanged {
				offline[req.BrokerName] = req.BrokerAddr
			}
		}
	}
	m.cleanTopics(t, removedNames, reducedNames)
	if t.view().cfg.NotifyMinBrokerIdChanged {
		outcome.notify = map[string]MinBrokerIDChange{}
		for brokerName, offlineAddr := range offline {
			group, ok := t.view().groups.get(brokerName)
			if ok && group.data.EnableActingMaster && len(group.data.BrokerAddrs) > 0 {
				outcome.notify[brokerName] = newMinBrokerIDChange(brokerName, group.data.BrokerAddrs, offlineAddr, "")
			}
		}
	}
	return outcome
}

// generationOf is the fence value of key now: its live generation, 0 if none.
func (t *txn) generationOf(key brokerAddrInfo) uint64 {
	if entry, ok := t.view().live.get(key); ok {
		return entry.generation
	}
	return 0
}

// removeMember removes every member of the request's group with its address
// (whatever the id: quirk Q16 reproduced) and the group when it becomes
// empty. minChanged compares the request's id, not the removed one, with the
// group's smallest id (Q16).
func (t *txn) removeMember(req UnregisterRequest) (removedName, minChanged bool) {
	group, ok := t.view().groups.get(req.BrokerName)
	if !ok {
		return false, false
	}
	smallest, nonEmpty := minKey(group.data.BrokerAddrs)
	minChanged = nonEmpty && req.BrokerID == smallest
	addrs := make(map[int64]string, len(group.data.BrokerAddrs))
	for id, addr := range group.data.BrokerAddrs {
		if addr != req.BrokerAddr {
			addrs[id] = addr
		}
	}
	if len(addrs) == 0 {
		t.setGroup(req.BrokerName, nil)
		return true, minChanged
	}
	t.publishGroup(req.BrokerName, group, group.data, addrs)
	return false, minChanged
}

// cleanTopics is the after-batch cleanup of 4.5: removed broker names lose
// their queue data everywhere; a reduced name whose group has acting master
// enabled and no master any more loses write permission on its topics. A
// reduced name without group is skipped (quirk Q17 fixed: Java fails there
// and skips the rest).
func (m *Manager) cleanTopics(t *txn, removedNames, reducedNames map[string]struct{}) {
	affected := map[string]struct{}{}
	for brokerName := range removedNames {
		for topic := range m.brokerTopics[brokerName] {
			affected[topic] = struct{}{}
		}
		t.removeMappingsOf(brokerName)
	}
	for topic := range affected { // each topic copied once for all its removed brokers
		t.removeQueueDatas(topic, func(brokerName string) bool {
			_, removed := removedNames[brokerName]
			return removed
		})
	}
	for brokerName := range removedNames {
		if topics, ok := m.brokerTopics[brokerName]; ok && len(topics) == 0 {
			delete(m.brokerTopics, brokerName) // sized ahead by a warm start (borrowed.go) and never filled
		}
	}
	for brokerName := range reducedNames {
		group, ok := t.view().groups.get(brokerName)
		if !ok || !group.data.EnableActingMaster {
			continue
		}
		if smallest, ok := minKey(group.data.BrokerAddrs); ok && smallest == MasterID {
			continue // a master is still there
		}
		t.changePerm(brokerName, func(perm int32) int32 { return perm &^ PermWrite })
	}
}

// sortedChanges lists notifications by broker name.
func sortedChanges(byName map[string]MinBrokerIDChange) []MinBrokerIDChange {
	if len(byName) == 0 {
		return nil
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	slices.Sort(names)
	changes := make([]MinBrokerIDChange, 0, len(names))
	for _, name := range names {
		changes = append(changes, byName[name])
	}
	return changes
}
