package remoting

// The broker admin requests of subscription groups and consume statistics
// (mqadmin updateSubGroup, deleteSubGroup, exportMetadata, consumerProgress),
// with Java's RequestCode names and values. They live in a file of their own
// so that parallel additions to codes.go merge without conflict.
//
//nolint:revive,stylecheck // Java names on purpose.
const (
	UPDATE_AND_CREATE_SUBSCRIPTIONGROUP = 200
	GET_ALL_SUBSCRIPTIONGROUP_CONFIG    = 201
	GET_CONSUMER_CONNECTION_LIST        = 203
	DELETE_SUBSCRIPTIONGROUP            = 207
	GET_CONSUME_STATS                   = 208
)

// Response codes of those requests (Java ResponseCode).
//
//nolint:revive,stylecheck // Java names on purpose.
const (
	CONSUMER_NOT_ONLINE          = 206
	SUBSCRIPTION_GROUP_NOT_EXIST = 26
)

func init() {
	for code, name := range map[int32]string{
		UPDATE_AND_CREATE_SUBSCRIPTIONGROUP: "UPDATE_AND_CREATE_SUBSCRIPTIONGROUP",
		GET_ALL_SUBSCRIPTIONGROUP_CONFIG:    "GET_ALL_SUBSCRIPTIONGROUP_CONFIG",
		GET_CONSUMER_CONNECTION_LIST:        "GET_CONSUMER_CONNECTION_LIST",
		DELETE_SUBSCRIPTIONGROUP:            "DELETE_SUBSCRIPTIONGROUP",
		GET_CONSUME_STATS:                   "GET_CONSUME_STATS",
	} {
		requestCodeNames[code] = name
	}
}
