package admin

import (
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// GroupHandlers answers the subscription group and statistics requests:
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), GET_ALL_SUBSCRIPTIONGROUP_CONFIG
// (201), DELETE_SUBSCRIPTIONGROUP (207), GET_TOPIC_STATS_INFO (202),
// GET_CONSUME_STATS (208) and GET_SYSTEM_TOPIC_LIST_FROM_BROKER (305).
type GroupHandlers struct {
	groups     *subgroup.Table
	topics     *topicconfig.Store
	brokerName string // names the queues of the statistics
	log        *logrus.Entry
	// logs limits the lines any client of the admin port can cause.
	logs ratelog.Set
}

// NewGroupHandlers returns the handlers over a group table and a topic store.
func NewGroupHandlers(groups *subgroup.Table, topics *topicconfig.Store, brokerName string, log *logrus.Entry) *GroupHandlers {
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	return &GroupHandlers{groups: groups, topics: topics, brokerName: brokerName, log: log}
}

// Register attaches the handlers to a server (or its guard); the group writes touch
// subscriptionGroup.json, so they run off the event loop.
func (h *GroupHandlers) Register(srv portguard.Registrar) {
	wrap := func(handle func(*remoting.Command) *remoting.Command) remoting.Handler {
		return func(_ *remoting.Conn, req *remoting.Command) *remoting.Command { return handle(req) }
	}
	srv.Handle(remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, wrap(h.UpdateAndCreateSubscriptionGroup), remoting.Slow())
	srv.Handle(remoting.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, wrap(h.GetAllSubscriptionGroup), remoting.Slow())
	srv.Handle(remoting.DELETE_SUBSCRIPTIONGROUP, wrap(h.DeleteSubscriptionGroup), remoting.Slow())
	srv.Handle(remoting.GET_TOPIC_STATS_INFO, wrap(h.GetTopicStatsInfo))
	srv.Handle(remoting.GET_CONSUME_STATS, wrap(h.GetConsumeStats))
	srv.Handle(remoting.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, wrap(h.GetSystemTopicList))
}
