// Package metrics holds the NameServer's Prometheus metrics (namespace
// rocketmq_namesrv): the remoting server's requests, connections and
// SYSTEM_BUSY answers through remoting.Observer, and the daemon's
// registrations, unregistrations, eviction scans, KV writes and config
// updates through the hooks its handlers call. Every value is counted where
// it happens; gauges read O(1) state (table counts, queue lengths) at scrape
// time and never walk the route tables. Label values are resolved once, at
// New, so the per-request cost is two atomic adds and a histogram observation.
package metrics
