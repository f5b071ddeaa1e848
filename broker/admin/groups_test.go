package admin

import (
	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/route"
)

// newTestGroupHandlers is broker-a with topic T (4 read, 6 write queues).
func newTestGroupHandlers() (*GroupHandlers, *subgroup.Table) {
	store := topicconfig.NewStore(nil, topicconfig.SystemTopics(topicconfig.DefaultSystemTopicOptions("DefaultCluster", "broker-a")), nil)
	if _, err := store.Put(route.TopicConfig{TopicName: "T", ReadQueueNums: 4, WriteQueueNums: 6, Perm: 6, TopicFilterType: "SINGLE_TAG"}); err != nil {
		panic(err)
	}
	groups := subgroup.NewTable(nil, nil)
	return NewGroupHandlers(groups, store, "broker-a", nil), groups
}
