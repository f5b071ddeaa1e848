package namesrv

import "runtime"

// registrationWorkers is the number of goroutines of the default worker
// pool, which runs the registrations (REGISTER_BROKER and
// REGISTER_TOPIC_IN_NAMESRV, dispatch.go): defaultThreadPoolNums, but never
// more than the processors less one (at least one). A registration decodes
// a body of up to megabytes and takes the route writer lock; with 16 of
// them runnable on a 2-core machine, Go's scheduler gave the event loops a
// processor only between the workers' 10 ms time slices, and route queries
// waited behind the storm (issue 22: route p99 0.8-1 s during the 2 MB
// registration flood). One processor is left for the event loops; more
// registrations than workers wait in the pool's queue, whose bound
// (defaultThreadPoolQueueCapacity) and the request memory limit answer
// SYSTEM_BUSY past them, as before.
func registrationWorkers(configured int) int {
	return max(1, min(configured, runtime.GOMAXPROCS(0)-1))
}
