package namesrv

// Request and response headers (ext fields) of the NameServer's request codes,
// with the Java field names (remoting/protocol/header/namesrv/*.java). The
// `required` marker is enforced: a request without the field is answered with
// SYSTEM_ERROR and a remark naming it (protocol.md quirk Q4, fixed).

type kvConfigRequestHeader struct {
	Namespace string `rmq:"namespace,required"`
	Key       string `rmq:"key,required"`
}

type putKVConfigRequestHeader struct {
	Namespace string  `rmq:"namespace"`
	Key       string  `rmq:"key"`
	Value     *string `rmq:"value"`
}

type getKVConfigResponseHeader struct {
	Value string `rmq:"value"`
}

type namespaceRequestHeader struct {
	Namespace string `rmq:"namespace,required"`
}

type registerBrokerRequestHeader struct {
	BrokerName             string `rmq:"brokerName,required"`
	BrokerAddr             string `rmq:"brokerAddr,required"`
	ClusterName            string `rmq:"clusterName,required"`
	HAServerAddr           string `rmq:"haServerAddr,required"`
	BrokerID               int64  `rmq:"brokerId,required"`
	HeartbeatTimeoutMillis *int64 `rmq:"heartbeatTimeoutMillis"`
	EnableActingMaster     *bool  `rmq:"enableActingMaster"`
	Compressed             bool   `rmq:"compressed"`
	BodyCrc32              int32  `rmq:"bodyCrc32"`
	ZoneName               string `rmq:"__ZONE_NAME"`
}

type registerBrokerResponseHeader struct {
	HAServerAddr *string `rmq:"haServerAddr"`
	MasterAddr   *string `rmq:"masterAddr"`
}

// brokerIdentityHeader serves UNREGISTER_BROKER and QUERY_DATA_VERSION, which
// carry the same four fields.
type brokerIdentityHeader struct {
	BrokerName  string `rmq:"brokerName,required"`
	BrokerAddr  string `rmq:"brokerAddr,required"`
	ClusterName string `rmq:"clusterName,required"`
	BrokerID    int64  `rmq:"brokerId,required"`
}

type queryDataVersionResponseHeader struct {
	Changed bool `rmq:"changed"`
}

type brokerHeartbeatRequestHeader struct {
	ClusterName string `rmq:"clusterName,required"`
	BrokerAddr  string `rmq:"brokerAddr,required"`
	BrokerName  string `rmq:"brokerName,required"`
}

type getRouteInfoRequestHeader struct {
	Topic                  string `rmq:"topic,required"`
	AcceptStandardJSONOnly bool   `rmq:"acceptStandardJsonOnly"`
	ZoneMode               bool   `rmq:"__ZONE_MODE"`
	ZoneName               string `rmq:"__ZONE_NAME"`
}

type brokerNameRequestHeader struct {
	BrokerName string `rmq:"brokerName,required"`
}

type wipeWritePermResponseHeader struct {
	WipeTopicCount int `rmq:"wipeTopicCount"`
}

type addWritePermResponseHeader struct {
	AddTopicCount int `rmq:"addTopicCount"`
}

type deleteTopicRequestHeader struct {
	Topic       string `rmq:"topic,required"`
	ClusterName string `rmq:"clusterName"`
}

type topicRequestHeader struct {
	Topic string `rmq:"topic,required"`
}

type getTopicsByClusterRequestHeader struct {
	Cluster string `rmq:"cluster,required"`
}

type getBrokerMemberGroupRequestHeader struct {
	ClusterName string `rmq:"clusterName,required"`
	BrokerName  string `rmq:"brokerName,required"`
}

// notifyMinBrokerIDChangeRequestHeader is what the NameServer sends to brokers
// (NOTIFY_MIN_BROKER_ID_CHANGE, protocol.md 2.24); every field is optional.
// Empty addresses are left out, as Java leaves them null: a Java slave given
// haBrokerAddr "" would take "" as its master's HA address instead of asking
// the master for it.
type notifyMinBrokerIDChangeRequestHeader struct {
	MinBrokerID       *int64 `rmq:"minBrokerId"`
	MinBrokerAddr     string `rmq:"minBrokerAddr,omitempty"`
	OfflineBrokerAddr string `rmq:"offlineBrokerAddr,omitempty"`
	HABrokerAddr      string `rmq:"haBrokerAddr,omitempty"`
}
