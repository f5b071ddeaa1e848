// Package admin answers the admin requests a broker serves for topics and for
// `mqadmin clusterList`: UPDATE_AND_CREATE_TOPIC (17), DELETE_TOPIC_IN_BROKER
// (215), GET_ALL_TOPIC_CONFIG (21) and GET_BROKER_RUNTIME_INFO (28).
package admin

// CreateTopicRequestHeader is the header of UPDATE_AND_CREATE_TOPIC (Java
// CreateTopicRequestHeader); mqadmin builds it too.
type CreateTopicRequestHeader struct {
	Topic           string  `rmq:"topic,required"`
	DefaultTopic    string  `rmq:"defaultTopic,required"`
	ReadQueueNums   int32   `rmq:"readQueueNums,required"`
	WriteQueueNums  int32   `rmq:"writeQueueNums,required"`
	Perm            int32   `rmq:"perm,required"`
	TopicFilterType string  `rmq:"topicFilterType,required"`
	TopicSysFlag    *int32  `rmq:"topicSysFlag"`
	Order           bool    `rmq:"order,required"`
	Attributes      *string `rmq:"attributes"` // `+key=value,-key` modification text
	Force           *bool   `rmq:"force"`
}

// DeleteTopicRequestHeader is the header of DELETE_TOPIC_IN_BROKER.
type DeleteTopicRequestHeader struct {
	Topic string `rmq:"topic,required"`
}

// GetAllTopicConfigResponseHeader is the header of the GET_ALL_TOPIC_CONFIG answer.
type GetAllTopicConfigResponseHeader struct {
	TotalTopicNum int32 `rmq:"totalTopicNum"`
}
