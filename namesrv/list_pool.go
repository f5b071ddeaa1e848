package namesrv

// listPool is the worker pool of the topic lists that scan every topic
// (GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_TOPICS_BY_CLUSTER and the unit
// lists): at 100,000 topics one takes 60-80 ms of CPU, which on the event
// loop would hold up every connection of that loop, route queries
// included. A pool of their own keeps them off the loop without queueing
// them behind a registration storm in the default pool. One worker: an
// operator's or a console's occasional list needs no more, and a flood of
// them must not take the cores from route queries; beyond the queue the
// answer is code 2 (SYSTEM_BUSY), as for the other pools.
const (
	listPool        = "lists"
	listPoolWorkers = 1
	listPoolQueue   = 100
)
