package remoting

import "strconv"

// Request codes, with the names and values of Java's RequestCode, so that
// anyone who knows RocketMQ can grep for them. They are untyped constants so
// they fit Command.Code (int32) without conversion.
//
//nolint:revive,stylecheck // Java names on purpose (house rule: Java names for protocol concepts).
const (
	// Broker admin requests (sent by mqadmin to brokers, answered by the broker side).
	UPDATE_AND_CREATE_TOPIC      = 17
	UPDATE_AND_CREATE_TOPIC_LIST = 18
	GET_ALL_TOPIC_CONFIG         = 21
	UPDATE_BROKER_CONFIG         = 25
	GET_BROKER_CONFIG            = 26
	GET_BROKER_RUNTIME_INFO      = 28
	HEART_BEAT                   = 34
	GET_TOPIC_STATS_INFO         = 202
	DELETE_TOPIC_IN_BROKER       = 215

	// NameServer requests (protocol.md section 2).
	PUT_KV_CONFIG                      = 100
	GET_KV_CONFIG                      = 101
	DELETE_KV_CONFIG                   = 102
	REGISTER_BROKER                    = 103
	UNREGISTER_BROKER                  = 104
	GET_ROUTEINFO_BY_TOPIC             = 105
	GET_BROKER_CLUSTER_INFO            = 106
	WIPE_WRITE_PERM_OF_BROKER          = 205
	GET_ALL_TOPIC_LIST_FROM_NAMESERVER = 206
	DELETE_TOPIC_IN_NAMESRV            = 216
	REGISTER_TOPIC_IN_NAMESRV          = 217
	GET_KVLIST_BY_NAMESPACE            = 219
	GET_TOPICS_BY_CLUSTER              = 224
	GET_SYSTEM_TOPIC_LIST_FROM_NS      = 304
	GET_SYSTEM_TOPIC_LIST_FROM_BROKER  = 305
	GET_UNIT_TOPIC_LIST                = 311
	GET_HAS_UNIT_SUB_TOPIC_LIST        = 312
	GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST = 313
	UPDATE_NAMESRV_CONFIG              = 318
	GET_NAMESRV_CONFIG                 = 319
	QUERY_DATA_VERSION                 = 322
	ADD_WRITE_PERM_OF_BROKER           = 327
	GET_BROKER_MEMBER_GROUP            = 901
	BROKER_HEARTBEAT                   = 904
	// NOTIFY_MIN_BROKER_ID_CHANGE is sent by the NameServer to brokers, one-way (protocol.md 2.24).
	NOTIFY_MIN_BROKER_ID_CHANGE = 905
)

// Response codes, with the names and values of Java's RemotingSysResponseCode
// and ResponseCode (protocol.md 1.13).
//
//nolint:revive,stylecheck // Java names on purpose.
const (
	SUCCESS                    = 0
	SYSTEM_ERROR               = 1
	SYSTEM_BUSY                = 2
	REQUEST_CODE_NOT_SUPPORTED = 3
	TRANSACTION_FAILED         = 4
	SERVICE_NOT_AVAILABLE      = 14
	VERSION_NOT_SUPPORTED      = 15
	NO_PERMISSION              = 16
	TOPIC_NOT_EXIST            = 17
	TOPIC_EXIST_ALREADY        = 18
	QUERY_NOT_FOUND            = 22
	INVALID_PARAMETER          = 29
	BROKER_NOT_EXIST           = 211
	GO_AWAY                    = 1500
)

// requestCodeNames maps every request code above to its Java name, for logs.
var requestCodeNames = map[int32]string{
	UPDATE_AND_CREATE_TOPIC:            "UPDATE_AND_CREATE_TOPIC",
	UPDATE_AND_CREATE_TOPIC_LIST:       "UPDATE_AND_CREATE_TOPIC_LIST",
	GET_ALL_TOPIC_CONFIG:               "GET_ALL_TOPIC_CONFIG",
	UPDATE_BROKER_CONFIG:               "UPDATE_BROKER_CONFIG",
	GET_BROKER_CONFIG:                  "GET_BROKER_CONFIG",
	GET_BROKER_RUNTIME_INFO:            "GET_BROKER_RUNTIME_INFO",
	HEART_BEAT:                         "HEART_BEAT",
	GET_TOPIC_STATS_INFO:               "GET_TOPIC_STATS_INFO",
	DELETE_TOPIC_IN_BROKER:             "DELETE_TOPIC_IN_BROKER",
	PUT_KV_CONFIG:                      "PUT_KV_CONFIG",
	GET_KV_CONFIG:                      "GET_KV_CONFIG",
	DELETE_KV_CONFIG:                   "DELETE_KV_CONFIG",
	REGISTER_BROKER:                    "REGISTER_BROKER",
	UNREGISTER_BROKER:                  "UNREGISTER_BROKER",
	GET_ROUTEINFO_BY_TOPIC:             "GET_ROUTEINFO_BY_TOPIC",
	GET_BROKER_CLUSTER_INFO:            "GET_BROKER_CLUSTER_INFO",
	WIPE_WRITE_PERM_OF_BROKER:          "WIPE_WRITE_PERM_OF_BROKER",
	GET_ALL_TOPIC_LIST_FROM_NAMESERVER: "GET_ALL_TOPIC_LIST_FROM_NAMESERVER",
	DELETE_TOPIC_IN_NAMESRV:            "DELETE_TOPIC_IN_NAMESRV",
	REGISTER_TOPIC_IN_NAMESRV:          "REGISTER_TOPIC_IN_NAMESRV",
	GET_KVLIST_BY_NAMESPACE:            "GET_KVLIST_BY_NAMESPACE",
	GET_TOPICS_BY_CLUSTER:              "GET_TOPICS_BY_CLUSTER",
	GET_SYSTEM_TOPIC_LIST_FROM_NS:      "GET_SYSTEM_TOPIC_LIST_FROM_NS",
	GET_SYSTEM_TOPIC_LIST_FROM_BROKER:  "GET_SYSTEM_TOPIC_LIST_FROM_BROKER",
	GET_UNIT_TOPIC_LIST:                "GET_UNIT_TOPIC_LIST",
	GET_HAS_UNIT_SUB_TOPIC_LIST:        "GET_HAS_UNIT_SUB_TOPIC_LIST",
	GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST: "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST",
	UPDATE_NAMESRV_CONFIG:              "UPDATE_NAMESRV_CONFIG",
	GET_NAMESRV_CONFIG:                 "GET_NAMESRV_CONFIG",
	QUERY_DATA_VERSION:                 "QUERY_DATA_VERSION",
	ADD_WRITE_PERM_OF_BROKER:           "ADD_WRITE_PERM_OF_BROKER",
	GET_BROKER_MEMBER_GROUP:            "GET_BROKER_MEMBER_GROUP",
	BROKER_HEARTBEAT:                   "BROKER_HEARTBEAT",
	NOTIFY_MIN_BROKER_ID_CHANGE:        "NOTIFY_MIN_BROKER_ID_CHANGE",
}

// RequestCodeName returns the Java name of a request code, or the decimal
// code for codes this package does not name, so log lines stay readable.
func RequestCodeName(code int32) string {
	if name, ok := requestCodeNames[code]; ok {
		return name
	}
	return strconv.FormatInt(int64(code), 10)
}
