package nstest

import "github.com/gonamesrv/gonamesrv/route"

// SharedTopic is the topic every standard broker serves.
const SharedTopic = "TopicTest"

// The standard brokers of the tests: one cluster, group broker-a with a
// master and a slave, group broker-b with a master. All serve SharedTopic;
// TopicA is broker-a's alone and TopicB broker-b's alone.
var (
	// BrokerAMaster is broker-a's master (id 0).
	BrokerAMaster = Broker{Cluster: "DefaultCluster", Name: "broker-a", Addr: "127.0.0.1:10911", HAAddr: "127.0.0.1:10912",
		ID: 0, Topics: map[string]int32{SharedTopic: 8, "TopicA": 4}, Version: route.DataVersion{Counter: 1, Timestamp: 1700000000000}}
	// BrokerASlave is broker-a's slave (id 1).
	BrokerASlave = Broker{Cluster: "DefaultCluster", Name: "broker-a", Addr: "127.0.0.1:10921", HAAddr: "127.0.0.1:10922",
		ID: 1, Topics: map[string]int32{SharedTopic: 8, "TopicA": 4}, Version: route.DataVersion{Counter: 1, Timestamp: 1700000000000}}
	// BrokerB is broker-b's master (id 0).
	BrokerB = Broker{Cluster: "DefaultCluster", Name: "broker-b", Addr: "127.0.0.1:10931", HAAddr: "127.0.0.1:10932",
		ID: 0, Topics: map[string]int32{SharedTopic: 4, "TopicB": 2}, Version: route.DataVersion{Counter: 1, Timestamp: 1700000001000}}
)
