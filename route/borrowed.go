package route

import (
	"maps"
	"slices"
	"time"

	log "github.com/sirupsen/logrus"
)

// A NameServer restarted with peers (namesrv/warmstart) installs their route
// state before it serves routes, so that it never answers TOPIC_NOT_EXIST
// for a topic its peers route while the brokers have not registered here
// again. What it installs is borrowed: each borrowed broker address gets a
// live entry on NoConn (like an elected master not registered here,
// election_live.go) whose deadline is the borrowing's, and a mark of the
// peer it came from. The entry stops being borrowed when its broker
// registers here (the registration replaces the entry, over its own
// connection), goes when the peer no longer has it (DropBorrowed) and
// expires at its deadline like any live entry (the eviction job's scan).

// borrowMark is where a borrowed live entry came from.
type borrowMark struct {
	// source is the peer's address, as this server asked it.
	source string
	// dataVersion is the broker's DataVersion as the peer holds it. The
	// entry itself holds an empty one, so that the broker's
	// QUERY_DATA_VERSION finds its version changed and it registers.
	dataVersion DataVersion
}

// refresh is a heartbeat's or data-version query's refresh of the entry's
// last-update time. A borrowed entry keeps its deadline: borrowing never
// extends an entry's life, only the broker's own registration does.
func (l *liveBroker) refresh(now time.Time) {
	if l.borrowed != nil {
		return
	}
	l.lastUpdateMillis.Store(now.UnixMilli())
}

// PeerBroker is one broker address of a peer's route state: its group's
// fields, its live entry's, and how long it stays borrowed there.
type PeerBroker struct {
	Cluster            string      `json:"cluster"`
	BrokerName         string      `json:"brokerName"`
	ZoneName           string      `json:"zoneName,omitempty"`
	EnableActingMaster bool        `json:"enableActingMaster,omitempty"`
	BrokerID           int64       `json:"brokerId"`
	Addr               string      `json:"addr"`
	HAServerAddr       string      `json:"haServerAddr,omitempty"`
	DataVersion        DataVersion `json:"dataVersion"`
	// BorrowedMillis, when above 0, says the peer borrowed this entry
	// itself and drops it within that many milliseconds: the borrower
	// keeps the earlier deadline.
	BorrowedMillis int64 `json:"borrowedMillis,omitempty"`
}

// PeerTopic is one topic of a peer's route state: its queue data, one per
// broker name (the topic configs as the brokers registered them, in the
// form the route tables keep them).
type PeerTopic struct {
	Topic      string      `json:"topic"`
	QueueDatas []QueueData `json:"queueDatas"`
}

// PeerElection is one controller election record a peer keeps for fencing
// (election.go's managedSet).
type PeerElection struct {
	BrokerName string `json:"brokerName"`
	MasterAddr string `json:"masterAddr,omitempty"`
	Epoch      int64  `json:"epoch"`
	Identity   string `json:"identity,omitempty"`
}

// PeerState is what a peer's warm-start answers hold together.
type PeerState struct {
	Brokers   []PeerBroker
	Elections []PeerElection
	Topics    []PeerTopic
}

// PeerBrokers lists every broker address of the route tables with its live
// entry's fields, borrowed ones with the milliseconds left to their
// deadline at now (the eviction clock's time), and the election records.
func (m *Manager) PeerBrokers(now time.Time) ([]PeerBroker, []PeerElection) {
	s := m.current.Load()
	var out []PeerBroker
	for name, group := range s.groups.all() {
		for id, addr := range group.data.BrokerAddrs {
			b := PeerBroker{Cluster: group.data.Cluster, BrokerName: name, ZoneName: group.data.ZoneName,
				EnableActingMaster: group.data.EnableActingMaster, BrokerID: id, Addr: addr}
			if live, ok := s.live.get(brokerAddrInfo{cluster: group.data.Cluster, addr: addr}); ok {
				b.HAServerAddr, b.DataVersion = live.haServerAddr, live.dataVersion
				if live.borrowed != nil {
					b.DataVersion = live.borrowed.dataVersion
					b.BorrowedMillis = max(live.deadlineMillis()-now.UnixMilli(), 1)
				}
			}
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b PeerBroker) int {
		return compareAddrInfo(brokerAddrInfo{a.Cluster, a.Addr}, brokerAddrInfo{b.Cluster, b.Addr})
	})
	m.mu.Lock()
	elections := make([]PeerElection, 0, len(m.managed))
	for name, set := range m.managed {
		elections = append(elections, PeerElection{BrokerName: name, MasterAddr: set.masterAddr, Epoch: set.epoch, Identity: set.identity})
	}
	m.mu.Unlock()
	return out, elections
}

// TopicCursor is where a page of PeerTopics resumes: the topics of one
// shard of the topic table, sorted, after a name. Shards are this process's
// own (a per-process hash seed); the cursor means nothing elsewhere.
type TopicCursor struct {
	Shard int    `json:"shard"`
	After string `json:"after,omitempty"`
}

// PeerTopics returns the topics from cursor on, up to about maxBytes of
// JSON (at least one topic), and the next cursor; done says there are no
// more. Each page reads the current tables: a topic created or deleted
// between two pages may be missed or seen, which the borrower's deadlines
// and re-polls bound.
func (m *Manager) PeerTopics(cursor TopicCursor, maxBytes int) (topics []PeerTopic, next TopicCursor, done bool) {
	s := m.current.Load()
	size, lastShard := 0, 0
	for shard := max(cursor.Shard, 0); shard < cowShardCount; shard++ {
		names := make([]string, 0, len(s.topics.shards[shard]))
		for name := range s.topics.shards[shard] {
			if shard != cursor.Shard || name > cursor.After || cursor.After == "" {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			if size >= maxBytes && len(topics) > 0 {
				return topics, TopicCursor{Shard: lastShard, After: topics[len(topics)-1].Topic}, false
			}
			lastShard = shard
			entry := s.topics.shards[shard][name]
			topics = append(topics, PeerTopic{Topic: name, QueueDatas: entry.queueDatas})
			size += peerTopicSize(name, entry.queueDatas)
		}
	}
	return topics, TopicCursor{Shard: cowShardCount}, true
}

// peerTopicSize is about the JSON bytes of one PeerTopic.
func peerTopicSize(name string, qds []QueueData) int {
	n := len(name) + 32
	for _, qd := range qds {
		n += len(qd.BrokerName) + 100
	}
	return n
}

// Borrowing is one install of a peer's state.
type Borrowing struct {
	// Source is the peer's address.
	Source string
	// Deadline is when everything borrowed goes at the latest: this
	// server's start plus brokerChannelExpiredTime. An entry the peer
	// borrowed itself goes at its own deadline when that is earlier.
	Deadline time.Time
	// Now is the eviction clock's time.
	Now time.Time
}

// BorrowedCounts says what an install took.
type BorrowedCounts struct {
	Brokers, Topics, QueueDatas, Elections int
}

// InstallBorrowedBrokers installs the peer's broker addresses this server
// does not hold yet, and its election records for sets it has none of. An
// address live here (registered, or borrowed from another peer) is kept as
// it is, and so is a broker id another address holds here.
func (m *Manager) InstallBorrowedBrokers(b Borrowing, brokers []PeerBroker, elections []PeerElection) BorrowedCounts {
	var counts BorrowedCounts
	m.mu.Lock()
	defer m.unlock()
	for _, e := range elections {
		if _, known := m.managed[e.BrokerName]; known || len(m.managed) >= MaxManagedSets || e.BrokerName == "" {
			continue
		}
		m.managed[e.BrokerName] = managedSet{masterAddr: e.MasterAddr, epoch: e.Epoch, identity: e.Identity}
		counts.Elections++
	}
	t := m.begin()
	nowMillis := b.Now.UnixMilli()
	for _, pb := range brokers {
		if CheckBrokerIdentity(pb.Cluster, pb.BrokerName, pb.Addr) != nil {
			continue
		}
		key := brokerAddrInfo{cluster: pb.Cluster, addr: pb.Addr}
		if _, live := t.view().live.get(key); live {
			continue
		}
		group, had := t.view().groups.get(pb.BrokerName)
		data := BrokerData{Cluster: pb.Cluster, BrokerName: pb.BrokerName, ZoneName: pb.ZoneName, EnableActingMaster: pb.EnableActingMaster}
		addrs := map[int64]string{}
		if had {
			if group.data.Cluster != pb.Cluster {
				continue // a name another cluster holds here (quirk Q15): its own registration decides
			}
			data, addrs = group.data, maps.Clone(group.data.BrokerAddrs)
			if held, taken := addrs[pb.BrokerID]; taken && held != pb.Addr {
				continue
			}
		}
		addrs[pb.BrokerID] = pb.Addr
		t.publishGroup(pb.BrokerName, group, data, addrs)
		t.addClusterBroker(pb.Cluster, pb.BrokerName)
		deadline := b.Deadline.UnixMilli()
		if pb.BorrowedMillis > 0 {
			deadline = min(deadline, nowMillis+pb.BorrowedMillis)
		}
		m.generationClock++
		entry := &liveBroker{key: key, timeoutMillis: max(deadline-nowMillis, 0), dataVersionJSON: EncodeDataVersion(nil, DataVersion{}),
			conn: NoConn, haServerAddr: pb.HAServerAddr, brokerName: pb.BrokerName, generation: m.generationClock,
			borrowed: &borrowMark{source: b.Source, dataVersion: pb.DataVersion}}
		entry.lastUpdateMillis.Store(nowMillis)
		t.setLive(key, entry)
		counts.Brokers++
	}
	t.commit()
	if counts.Brokers > 0 || counts.Elections > 0 {
		m.logLater(log.InfoLevel, log.Fields{"peer": b.Source, "brokers": counts.Brokers, "elections": counts.Elections},
			"borrowed the peer's brokers until they register here")
	}
	return counts
}

// InstallBorrowedTopics installs a page of the peer's topics: the queue
// data of the broker names every live member of which is borrowed (a
// broker registered here wrote its own). Call it after
// InstallBorrowedBrokers.
func (m *Manager) InstallBorrowedTopics(topics []PeerTopic) BorrowedCounts {
	var counts BorrowedCounts
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	borrowedName := map[string]bool{}
	for _, pt := range topics {
		if pt.Topic == "" {
			continue
		}
		took := false
		for _, qd := range pt.QueueDatas {
			ok, seen := borrowedName[qd.BrokerName]
			if !seen {
				ok = m.allBorrowed(t.view(), qd.BrokerName)
				borrowedName[qd.BrokerName] = ok
			}
			if ok && t.putQueueData(pt.Topic, qd) {
				counts.QueueDatas++
				took = true
			}
		}
		if took {
			counts.Topics++
		}
	}
	t.commit()
	return counts
}

// allBorrowed says whether brokerName's group is here and each of its
// addresses has a borrowed live entry.
func (m *Manager) allBorrowed(s *snapshot, brokerName string) bool {
	group, ok := s.groups.get(brokerName)
	if !ok || len(group.data.BrokerAddrs) == 0 {
		return false
	}
	for _, addr := range group.data.BrokerAddrs {
		live, ok := s.live.get(brokerAddrInfo{cluster: group.data.Cluster, addr: addr})
		if !ok || live.borrowed == nil {
			return false
		}
	}
	return true
}

// DropBorrowed removes what was borrowed from source and the peer no
// longer has: the broker addresses has says no to (with their queue data
// when their broker name is left empty, as any broker's removal), and, of
// the broker names still wholly borrowed from source, the queue data of
// the topics routes says the peer no longer routes through them. It returns
// the brokers removed.
func (m *Manager) DropBorrowed(source string, has func(cluster, addr string) bool, routes func(topic, brokerName string) bool) []RemovedBroker {
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	var gone []*liveBroker
	names := map[string]struct{}{}
	for _, live := range t.view().live.all() {
		if live.borrowed == nil || live.borrowed.source != source {
			continue
		}
		if !has(live.key.cluster, live.key.addr) {
			gone = append(gone, live)
			continue
		}
		names[live.brokerName] = struct{}{}
	}
	slices.SortFunc(gone, func(a, b *liveBroker) int { return compareAddrInfo(a.key, b.key) })
	removed := m.removeLiveBrokers(t, gone)
	dropped := 0
	for name := range names {
		if !m.allBorrowed(t.view(), name) {
			continue
		}
		for _, topic := range m.topicsOf(name) {
			if !routes(topic, name) && t.removeQueueData(topic, name) {
				dropped++
			}
		}
	}
	t.commit()
	if len(removed) > 0 || dropped > 0 {
		m.logLater(log.InfoLevel, log.Fields{"peer": source, "brokers": len(removed), "queueDatas": dropped},
			"borrowed entries the peer no longer has dropped")
	}
	return removed
}

// BorrowedSources counts the borrowed live entries by the peer they came
// from; empty when nothing is borrowed.
func (m *Manager) BorrowedSources() map[string]int {
	out := map[string]int{}
	for _, live := range m.current.Load().live.all() {
		if live.borrowed != nil {
			out[live.borrowed.source]++
		}
	}
	return out
}
