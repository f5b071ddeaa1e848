package route

import (
	"encoding/binary"
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
	// Topics is how many topics the broker name routes (the same on each
	// member's row): the borrower sizes its index of them at once.
	Topics int `json:"topics,omitempty"`
	// BorrowedMillis, when above 0, says the peer borrowed this entry
	// itself and drops it within that many milliseconds: the borrower
	// keeps the earlier deadline.
	BorrowedMillis int64 `json:"borrowedMillis,omitempty"`
}

// PeerTopicPage is a page of a peer's topics with their queue data, one
// per broker name (the topic configs as the brokers registered them, in the
// form the route tables keep them). The topics of a cluster share one list
// of queue data, so each distinct list is written once, in Sets, and
// SetOf[i] is the index of Topics[i]'s: at 100,000 topics on 1,000 brokers
// the whole state is about 5 MB instead of 100.
type PeerTopicPage struct {
	Sets   [][]QueueData `json:"sets"`
	Topics []string      `json:"topics"`
	SetOf  []int         `json:"setOf"`
	// Mappings are the static-topic mappings of the page's topics that
	// have any, by topic.
	Mappings map[string][]TopicQueueMappingInfo `json:"mappings,omitempty"`
}

// PeerElection is one controller election record a peer keeps for fencing
// (election.go's managedSet).
type PeerElection struct {
	BrokerName string `json:"brokerName"`
	MasterAddr string `json:"masterAddr,omitempty"`
	Epoch      int64  `json:"epoch"`
	Identity   string `json:"identity,omitempty"`
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
	for i := range out {
		out[i].Topics = len(m.brokerTopics[out[i].BrokerName])
	}
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
func (m *Manager) PeerTopics(cursor TopicCursor, maxBytes int) (page PeerTopicPage, next TopicCursor, done bool) {
	s := m.current.Load()
	size, lastShard := 0, 0
	setIndex := map[string]int{}
	var key []byte
	for shard := max(cursor.Shard, 0); shard < cowShardCount; shard++ {
		names := make([]string, 0, len(s.topics.shards[shard]))
		for name := range s.topics.shards[shard] {
			if shard != cursor.Shard || name > cursor.After || cursor.After == "" {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		for _, name := range names {
			if size >= maxBytes && len(page.Topics) > 0 {
				return page, TopicCursor{Shard: lastShard, After: page.Topics[len(page.Topics)-1]}, false
			}
			lastShard = shard
			qds := s.topics.shards[shard][name].queueDatas
			key = appendQueueDatasKey(key[:0], qds)
			i, ok := setIndex[string(key)]
			if !ok {
				i = len(page.Sets)
				setIndex[string(key)] = i
				page.Sets = append(page.Sets, qds)
				size += len(key) + 80*len(qds)
			}
			page.Topics = append(page.Topics, name)
			page.SetOf = append(page.SetOf, i)
			size += len(name) + 12
			if mapping := s.mappings[name]; mapping != nil {
				if page.Mappings == nil {
					page.Mappings = map[string][]TopicQueueMappingInfo{}
				}
				for _, info := range mapping.byBroker {
					page.Mappings[name] = append(page.Mappings[name], info)
					size += 200 + 16*len(info.CurrIDMap)
				}
			}
		}
	}
	return page, TopicCursor{Shard: cowShardCount}, true
}

// appendQueueDatasKey appends what tells two lists of queue data apart.
func appendQueueDatasKey(dst []byte, qds []QueueData) []byte {
	for _, qd := range qds {
		dst = append(dst, qd.BrokerName...)
		dst = append(dst, 0)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(qd.ReadQueueNums))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(qd.WriteQueueNums))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(qd.Perm))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(qd.TopicSysFlag))
	}
	return dst
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
		if _, indexed := m.brokerTopics[pb.BrokerName]; !indexed && pb.Topics > 0 {
			// Sized at once: the pages then fill it without growing it.
			m.brokerTopics[pb.BrokerName] = make(map[string]struct{}, min(pb.Topics, maxPresizedTopics))
		}
		counts.Brokers++
	}
	t.commit()
	if counts.Brokers > 0 || counts.Elections > 0 {
		m.logLater(log.InfoLevel, log.Fields{"peer": b.Source, "brokers": counts.Brokers, "elections": counts.Elections},
			"borrowed the peer's brokers until they register here")
	}
	return counts
}

// InstallBorrowedTopics installs pages of the peer's topics: the queue
// data of the broker names every live member of which is borrowed (a
// broker registered here wrote its own). Call it after
// InstallBorrowedBrokers, with as many pages at once as there are: each
// call is one transaction, which copies the shards of the topic table it
// changes (about 150 ms at 100,000 topics).
func (m *Manager) InstallBorrowedTopics(pages ...PeerTopicPage) BorrowedCounts {
	var counts BorrowedCounts
	m.mu.Lock()
	defer m.unlock()
	t := m.begin()
	borrowedName := map[string]bool{}
	for _, page := range pages {
		if len(page.SetOf) == len(page.Topics) {
			m.installPage(t, page, borrowedName, &counts)
		}
	}
	t.commit()
	return counts
}

// installPage is InstallBorrowedTopics' work for one page.
func (m *Manager) installPage(t *txn, page PeerTopicPage, borrowedName map[string]bool, counts *BorrowedCounts) {
	touched := map[string]struct{}{}
	// Each set once: its queue data of borrowed names, sorted by name.
	sets := make([][]QueueData, len(page.Sets))
	for i, set := range page.Sets {
		for _, qd := range set {
			ok, seen := borrowedName[qd.BrokerName]
			if !seen {
				ok = m.allBorrowed(t.view(), qd.BrokerName)
				borrowedName[qd.BrokerName] = ok
			}
			if ok && (len(sets[i]) == 0 || sets[i][len(sets[i])-1].BrokerName < qd.BrokerName) {
				sets[i] = append(sets[i], qd)
			}
		}
	}
	for i, topic := range page.Topics {
		set := page.SetOf[i]
		if topic == "" || set < 0 || set >= len(sets) || len(sets[set]) == 0 {
			continue
		}
		qds := sets[set]
		if _, exists := t.view().topics.get(topic); !exists {
			// A new topic, the usual case: its entry in one step.
			t.edit()
			t.setTopic(topic, &topicEntry{queueDatas: slices.Clone(qds)})
			t.next.queueDatas += len(qds)
			for _, qd := range qds {
				m.indexNewTopic(qd.BrokerName, topic, touched)
			}
			counts.Topics++
			counts.QueueDatas += len(qds)
			continue
		}
		took := false
		for _, qd := range qds {
			if t.putQueueData(topic, qd) {
				counts.QueueDatas++
				took = true
			}
		}
		if took {
			counts.Topics++
		}
	}
	for name := range touched {
		m.touchQueueData(name)
	}
	m.installMappings(t, page.Mappings, borrowedName)
}

// installMappings installs the static-topic mappings of the hosting broker
// names that are wholly borrowed, where this server has none for the pair;
// each is filed as written by its hosting broker name (so it goes with it).
func (m *Manager) installMappings(t *txn, mappings map[string][]TopicQueueMappingInfo, borrowedName map[string]bool) {
	for topic, infos := range mappings {
		for _, info := range infos {
			if !borrowedName[info.Bname] || topic == "" {
				continue
			}
			if current := t.view().mappings[topic]; current != nil {
				if _, had := current.byBroker[info.Bname]; had {
					continue
				}
			}
			t.setMapping(topic, info)
			m.noteMapping(info.Bname, topic, info.Bname)
		}
	}
}

// maxPresizedTopics bounds the index a peer's count sizes ahead, so a peer
// claiming billions allocates no more than a real broker name would need.
const maxPresizedTopics = 1 << 20

// indexNewTopic is indexBrokerTopic's present case without the epoch move,
// which the caller makes once per broker name of the page (touched).
func (m *Manager) indexNewTopic(brokerName, topic string, touched map[string]struct{}) {
	topics := m.brokerTopics[brokerName]
	if topics == nil {
		topics = map[string]struct{}{}
		m.brokerTopics[brokerName] = topics
	}
	topics[topic] = struct{}{}
	touched[brokerName] = struct{}{}
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
