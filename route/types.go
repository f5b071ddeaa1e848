package route

// The route data types below carry the Java class names of Apache RocketMQ
// (remoting/protocol/route, remoting/protocol/body, common/TopicConfig) so a
// RocketMQ reader finds their way. Their JSON forms are written and read by the
// hand-written codecs of this package (json*.go), never by encoding/json: the
// Java peers use fastjson, whose output is not always valid JSON (bare numeric
// map keys) and whose field order and escaping a byte-compatible server must
// reproduce (protocol.md section 3).

// DataVersion identifies one state of a broker's topic configuration; the
// NameServer compares it to decide whether a re-registration changed anything.
type DataVersion struct {
	Counter      int64 // incremented by the broker on each change
	StateVersion int64 // state-machine version (controller mode), 0 otherwise
	Timestamp    int64 // milliseconds since the epoch of the last change
}

// TopicConfig is one topic of a broker's registration (Java common/TopicConfig).
type TopicConfig struct {
	TopicName       string // the route table key; not the map key it arrived under
	ReadQueueNums   int32
	WriteQueueNums  int32
	Perm            int32  // PermRead | PermWrite | ... bits
	TopicFilterType string // "SINGLE_TAG" or "MULTI_TAG"
	TopicSysFlag    int32  // FlagUnit | FlagUnitSub bits
	Order           bool
	Attributes      map[string]string // written as {} when nil
}

// QueueData is the queue layout of one topic on one broker group (broker name).
type QueueData struct {
	BrokerName     string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

// BrokerData is one broker group: its name, cluster and member addresses by id
// (MasterID is the master).
type BrokerData struct {
	Cluster            string
	BrokerName         string
	BrokerAddrs        map[int64]string // broker id -> "ip:port"
	ZoneName           string           // "" stands for Java null: omitted from JSON
	EnableActingMaster bool
}

// TopicQueueMappingInfo describes a static topic's logical queues hosted by one
// broker (Java statictopic/TopicQueueMappingInfo); the NameServer stores and
// returns it as received.
type TopicQueueMappingInfo struct {
	Topic       string
	Scope       string // DefaultMappingScope when absent
	Bname       string // hosting broker name
	TotalQueues int32
	Epoch       int64
	Dirty       bool
	CurrIDMap   map[int32]int32 // logical queue id -> physical queue id ("currIdMap")
}

// TopicRouteData is the answer to a route query: which broker groups serve a
// topic and with which queues.
type TopicRouteData struct {
	OrderTopicConf            string // "" stands for Java null: omitted from JSON
	QueueDatas                []QueueData
	BrokerDatas               []BrokerData
	FilterServerTable         map[string][]string              // broker address -> filter servers
	TopicQueueMappingByBroker map[string]TopicQueueMappingInfo // nil: omitted (not a static topic)
}

// TopicConfigSerializeWrapper is the topic table a broker registers, with the
// version the NameServer uses to detect changes. It also carries the static
// topic mappings of Java's TopicConfigAndMappingSerializeWrapper.
type TopicConfigSerializeWrapper struct {
	DataVersion              DataVersion
	TopicConfigTable         map[string]TopicConfig
	TopicQueueMappingInfoMap map[string]TopicQueueMappingInfo // static topics; nil when absent
}

// RegisterBrokerBody is the body of REGISTER_BROKER (request version >= 37).
type RegisterBrokerBody struct {
	TopicConfigSerializeWrapper TopicConfigSerializeWrapper
	FilterServerList            []string
}

// ClusterInfo is the answer to GET_BROKER_CLUSTER_INFO.
type ClusterInfo struct {
	BrokerAddrTable  map[string]BrokerData // broker name -> group
	ClusterAddrTable map[string][]string   // cluster name -> broker names
}

// TopicList is the answer to the topic list queries.
type TopicList struct {
	TopicList  []string
	BrokerAddr string // "" stands for Java null: omitted from JSON
}

// KVTable is one namespace of the KV config store (GET_KVLIST_BY_NAMESPACE and
// the order config a registration answer carries).
type KVTable struct {
	Table map[string]string
}

// BrokerMemberGroup lists the members of one broker group by id.
type BrokerMemberGroup struct {
	Cluster     string
	BrokerName  string
	BrokerAddrs map[int64]string
}

// GetBrokerMemberGroupResponseBody is the answer to GET_BROKER_MEMBER_GROUP.
type GetBrokerMemberGroupResponseBody struct {
	BrokerMemberGroup BrokerMemberGroup
}

// Permission bits of QueueData.Perm and TopicConfig.Perm (Java PermName).
const (
	PermPriority int32 = 8
	PermRead     int32 = 4
	PermWrite    int32 = 2
	PermInherit  int32 = 1
)

// Topic sys flag bits (Java TopicSysFlag).
const (
	FlagUnit    int32 = 1 << 0 // unit topic
	FlagUnitSub int32 = 1 << 1 // has unit subscription
)

// MasterID is the broker id of a group's master (Java MixAll.MASTER_ID).
const MasterID int64 = 0

// SyncBrokerMemberGroupPrefix starts the per-broker system topic used for
// member-group sync; such topics are exempt from acting-master rewriting.
const SyncBrokerMemberGroupPrefix = "rmq_sys_SYNC_BROKER_MEMBER_"

// Version ordinals of MQVersion that change the NameServer's behaviour.
const (
	VersionV3_0_11 int32 = 37  // REGISTER_BROKER: below it the body is a bare TopicConfigSerializeWrapper
	VersionV4_9_4  int32 = 401 // GET_ROUTEINFO_BY_TOPIC: standard JSON from here on
	VersionV5_0_0  int32 = 413 // compressed RegisterBrokerBody: mapping section read from here on
)

// Defaults the Java classes give to missing fields (protocol.md 3.7, 3.9).
const (
	DefaultPerm          int32 = PermRead | PermWrite
	DefaultQueueNums     int32 = 16
	TopicFilterSingleTag       = "SINGLE_TAG"
	TopicFilterMultiTag        = "MULTI_TAG"
	DefaultMappingScope        = "__global__"
)
