package route

import (
	"slices"
	"strings"
	"sync/atomic"
	"unique"
)

// The records below are the rows of the Java RouteInfoManager tables. Once a
// record is published in a snapshot, every field a reader can see is frozen;
// a change makes a new record. The only exceptions are atomics (a broker's
// last-update time) and fields marked "writer-only", which only the holder of
// Manager.mu reads or writes.

// brokerAddrInfo keys brokerLiveTable and the filter-server table: the same
// address under two cluster names is two live brokers (Java BrokerAddrInfo).
type brokerAddrInfo struct {
	cluster string
	addr    string
}

// liveBroker is one row of brokerLiveTable (Java BrokerLiveInfo).
type liveBroker struct {
	key              brokerAddrInfo
	lastUpdateMillis atomic.Int64 // heartbeats store here without the writer lock
	timeoutMillis    int64
	dataVersion      DataVersion
	// dataVersionJSON is dataVersion as EncodeDataVersion writes it: the
	// body of every QUERY_DATA_VERSION answer, and what a broker whose
	// version is current sends (queryDataVersionJSON compares the bytes).
	dataVersionJSON []byte
	conn            ConnID
	haServerAddr    string
	brokerName      string // name it registered under, to find its group when it goes
	generation      uint64 // fence for stale unregister requests (apache/rocketmq#11043)
	bodyFingerprint uint64 // RegisterBrokerRequest.BodyFingerprint of its last registration
	// tableFingerprint is the RegisterBrokerRequest.TableFingerprint of the
	// last body whose filter-server list was applied (0: unknown), so a
	// registration skipping its body can tell that list is the same.
	tableFingerprint uint64

	// lastRegisterMillis and version are the time and request version of
	// the last REGISTER_BROKER, for the operators' view (view.go).
	lastRegisterMillis atomic.Int64
	version            atomic.Int32

	// borrowed, set on an entry a peer's warm-start answer installed
	// (borrowed.go), says where it came from; nil on a broker's own entry.
	// Frozen once published.
	borrowed *borrowMark

	// writer-only:
	retired           bool   // replaced or removed: its expiry slot is stale
	appliedTopics     bool   // its last registration applied its topic table
	appliedEpoch      uint64 // queueDataEpoch of brokerName right after that
	appliedBody       uint64 // the BodyFingerprint then
	appliedWithDelete bool   // deleteTopicWithBrokerRegistration was on then
	arrivalSeq        uint64 // latest RegisterBrokerRequest.ArrivalSeq applied over conn
	fullApply         fullTableApply
}

// fullTableApply records the last time a broker wrote every topic of its
// table (a first registration or a new DataVersion, Java's full path of
// protocol.md 4.3 step 11). While the broker name's queue data has not
// changed since (same queueDataEpoch) and the static mappings it wrote are
// untouched, that queue data is exactly what the table gives, so writing the
// same table again, with the same read-only rule, changes nothing.
type fullTableApply struct {
	table        uint64 // TableFingerprint of the applied body; 0: no record
	brokerName   string // the broker name it was applied under
	epoch        uint64 // queueDataEpoch of brokerName right after
	wipeWrite    bool   // written read-only (prime slave, acting master)
	withDelete   bool   // deleteTopicWithBrokerRegistration was on
	hasMappings  bool   // the table carried static-topic mappings
	mappingEpoch uint64 // Manager.mappingEpoch right after, when hasMappings
}

// deadlineMillis is when the broker expires unless it is heard from again.
func (l *liveBroker) deadlineMillis() int64 {
	return l.lastUpdateMillis.Load() + l.timeoutMillis
}

// brokerGroup is one row of brokerAddrTable: a BrokerData that is never
// mutated, plus its encoded forms for route answers.
type brokerGroup struct {
	data    BrokerData
	encoded [2]atomic.Pointer[[]byte] // appendBrokerData output, by encodingIndex
}

func newBrokerGroup(data BrokerData) *brokerGroup {
	return &brokerGroup{data: data}
}

// hasMaster says whether the group has an address under MasterID.
func (g *brokerGroup) hasMaster() bool {
	_, ok := g.data.BrokerAddrs[MasterID]
	return ok
}

// encodedJSON returns the group's BrokerData JSON, encoding it once per flavour.
func (g *brokerGroup) encodedJSON(standard bool) []byte {
	slot := &g.encoded[encodingIndex(standard)]
	if b := slot.Load(); b != nil {
		return *b
	}
	b := appendBrokerData(nil, &g.data, standard)
	slot.Store(&b)
	return b
}

// sameBrokerData says whether two BrokerData would answer every query alike.
func sameBrokerData(a, b *BrokerData) bool {
	if a.Cluster != b.Cluster || a.BrokerName != b.BrokerName || a.ZoneName != b.ZoneName ||
		a.EnableActingMaster != b.EnableActingMaster || len(a.BrokerAddrs) != len(b.BrokerAddrs) {
		return false
	}
	for id, addr := range a.BrokerAddrs {
		if other, ok := b.BrokerAddrs[id]; !ok || other != addr {
			return false
		}
	}
	return true
}

// topicEntry is one row of topicQueueTable: the queue data of one topic, one
// per broker name, sorted by broker name. Entries are shared between snapshots
// until a write changes that topic.
type topicEntry struct {
	// name is the topic's name as the table and every broker's topic index
	// hold it: the string of the registration that created the topic,
	// kept by every later entry of the topic. Each registration decodes its
	// own copy of the names, and at 100,000 topics on 1,000 brokers
	// (1,000,000 index entries) keeping those copies was ~35 MiB of heap;
	// interning them with unique.Make instead tripled the time to register
	// 60,000 new topics (a weak handle per new name).
	name       string
	queueDatas []QueueData
	encoded    [2]atomic.Pointer[unique.Handle[string]] // the queueDatas array JSON, by encodingIndex, interned
	route      atomic.Pointer[routeSnapshot]            // last route built from this entry
	brokers    [2]atomic.Pointer[brokerDatasJSON]       // RouteJSON's brokerDatas, by encodingIndex
}

// brokerDatasJSON is the brokerDatas array of a route as RouteJSON writes
// it, for the snapshots of one routesVersion. Interned: the topics of a
// cluster are served by the same brokers.
type brokerDatasJSON struct {
	routesVersion uint64
	json          string
}

// queueDataIndex finds the queue data of brokerName.
func (e *topicEntry) queueDataIndex(brokerName string) (int, bool) {
	return slices.BinarySearchFunc(e.queueDatas, brokerName, func(q QueueData, name string) int {
		return strings.Compare(q.BrokerName, name)
	})
}

// queueData returns the queue data of brokerName.
func (e *topicEntry) queueData(brokerName string) (QueueData, bool) {
	if e == nil {
		return QueueData{}, false
	}
	i, ok := e.queueDataIndex(brokerName)
	if !ok {
		return QueueData{}, false
	}
	return e.queueDatas[i], true
}

// withQueueData returns a new entry where brokerName's queue data is qd.
func (e *topicEntry) withQueueData(qd QueueData) *topicEntry {
	if e == nil {
		return &topicEntry{queueDatas: []QueueData{qd}}
	}
	i, found := e.queueDataIndex(qd.BrokerName)
	next := make([]QueueData, 0, len(e.queueDatas)+1)
	next = append(next, e.queueDatas[:i]...)
	next = append(next, qd)
	if found {
		i++
	}
	next = append(next, e.queueDatas[i:]...)
	return &topicEntry{queueDatas: next}
}

// withoutQueueData returns a new entry without brokerName's queue data, or
// nil when nothing would be left.
func (e *topicEntry) withoutQueueData(brokerName string) *topicEntry {
	i, found := e.queueDataIndex(brokerName)
	if !found {
		return e
	}
	if len(e.queueDatas) == 1 {
		return nil
	}
	next := make([]QueueData, 0, len(e.queueDatas)-1)
	next = append(next, e.queueDatas[:i]...)
	next = append(next, e.queueDatas[i+1:]...)
	return &topicEntry{queueDatas: next}
}

// encodedQueueDatas returns the queueDatas JSON array, encoding it once per
// flavour.
func (e *topicEntry) encodedQueueDatas(standard bool) string {
	slot := &e.encoded[encodingIndex(standard)]
	if h := slot.Load(); h != nil {
		return h.Value()
	}
	b := []byte{'['}
	for i := range e.queueDatas {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendQueueData(b, &e.queueDatas[i], standard)
	}
	b = append(b, ']')
	// Interned: the topics of a cluster mostly have the same queue datas
	// (the same brokers, queue counts and permissions), and at 100,000
	// topics one copy each was half the heap (~120 MB of 220). The handle
	// keeps the one copy alive while an entry refers to it.
	h := unique.Make(string(b))
	slot.Store(&h)
	return h.Value()
}

// topicMapping is the static-topic mapping of one topic (a row of Java's
// topicQueueMappingInfoTable): hosting broker name -> mapping info, frozen.
type topicMapping struct {
	byBroker map[string]TopicQueueMappingInfo
	encoded  [2]atomic.Pointer[[]byte]
}

// encodedJSON returns the topicQueueMappingByBroker object JSON.
func (t *topicMapping) encodedJSON(standard bool) []byte {
	slot := &t.encoded[encodingIndex(standard)]
	if b := slot.Load(); b != nil {
		return *b
	}
	b := appendMappingTable(nil, t.byBroker, standard)
	slot.Store(&b)
	return b
}

// filterTable is the filter-server table: (cluster, address) -> filter
// servers. Frozen; replaced as a whole when it changes (rare: filter servers
// are a legacy feature), so route caches can compare it by pointer.
type filterTable struct {
	servers map[brokerAddrInfo][]string
}

// encodingIndex maps a JSON flavour to a cache slot.
func encodingIndex(standard bool) int {
	if standard {
		return 1
	}
	return 0
}
