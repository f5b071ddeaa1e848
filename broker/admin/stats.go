package admin

import (
	"strings"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// GetTopicStatsInfoRequestHeader is the header of GET_TOPIC_STATS_INFO.
type GetTopicStatsInfoRequestHeader struct {
	Topic string `rmq:"topic,required"`
}

// GetConsumeStatsRequestHeader is the header of GET_CONSUME_STATS; a
// non-blank topicList (';'-separated) wins over topic, as in Java.
type GetConsumeStatsRequestHeader struct {
	ConsumerGroup string `rmq:"consumerGroup,required"`
	Topic         string `rmq:"topic,omitempty"`
	TopicList     string `rmq:"topicList,omitempty"`
}

// GetTopicStatsInfo answers one row per queue of a topic this broker has
// (the larger of its read and write queue counts, as Java). The route-only
// broker has no message store: every minimum and maximum offset is 0 and no
// queue was ever written (last update 0), the put TPS 0.
func (h *GroupHandlers) GetTopicStatsInfo(req *remoting.Command) *remoting.Command {
	var header GetTopicStatsInfoRequestHeader
	if err := remoting.DecodeHeader(req, &header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	tc, ok := h.topics.Get(header.Topic)
	if !ok {
		return remoting.NewResponse(req, remoting.TOPIC_NOT_EXIST, "topic["+header.Topic+"] not exist")
	}
	table := TopicStatsTable{OffsetTable: map[MessageQueue]TopicOffset{}}
	for i := range max(tc.ReadQueueNums, tc.WriteQueueNums) {
		table.OffsetTable[MessageQueue{Topic: tc.TopicName, BrokerName: h.brokerName, QueueID: i}] = TopicOffset{}
	}
	return h.answer(req, table.Encode)
}

// GetConsumeStats answers a group's progress on the topics asked for. With
// no store and no consumers, the route-only broker knows no offsets: each
// read queue of each named topic it has is a row of zeros, and a request
// naming no topic (Java would use the topics the group committed offsets
// on) is answered with an empty table.
func (h *GroupHandlers) GetConsumeStats(req *remoting.Command) *remoting.Command {
	var header GetConsumeStatsRequestHeader
	if err := remoting.DecodeHeader(req, &header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	var topics []string
	if strings.TrimSpace(header.TopicList) != "" {
		topics = strings.Split(header.TopicList, ";")
	} else if strings.TrimSpace(header.Topic) != "" {
		topics = []string{header.Topic}
	}
	stats := ConsumeStats{OffsetTable: map[MessageQueue]OffsetWrapper{}}
	for _, topic := range topics {
		tc, ok := h.topics.Get(topic)
		if !ok {
			continue
		}
		for i := range tc.ReadQueueNums {
			stats.OffsetTable[MessageQueue{Topic: topic, BrokerName: h.brokerName, QueueID: i}] = OffsetWrapper{}
		}
	}
	return h.answer(req, stats.Encode)
}

// GetSystemTopicList answers the names this broker counts as system topics.
func (h *GroupHandlers) GetSystemTopicList(req *remoting.Command) *remoting.Command {
	return h.answer(req, func() ([]byte, error) {
		return route.EncodeTopicList(nil, &route.TopicList{TopicList: h.topics.SystemTopicNames()}), nil
	})
}

// answer is a success carrying encode's body, or SYSTEM_ERROR.
func (h *GroupHandlers) answer(req *remoting.Command, encode func() ([]byte, error)) *remoting.Command {
	body, err := encode()
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = body
	return resp
}
