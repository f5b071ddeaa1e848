package namesrv

import (
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// fastRoute is getRouteInfoByTopic for the remoting server's fast path: the
// plain case only (the server ready, no order config to add, a known topic;
// with ACL on, a query the checker admits without a check: fastRouteAdmitted),
// the route's JSON appended straight into the answer frame. Anything else is
// declined and goes to getRouteInfoByTopic, which answers it as always.
func (ns *NameServer) fastRoute(q remoting.FastRouteQuery, dst []byte) ([]byte, bool) {
	if ns.routeReadGuarded && !ns.fastRouteAdmitted(q) {
		return dst, false
	}
	cfg := ns.settings.Get()
	if cfg.OrderMessageEnable ||
		cfg.NeedWaitForService && time.Since(ns.startedAt) < time.Duration(cfg.WaitSecondsForService)*time.Second {
		return dst, false
	}
	standard := q.Version >= route.VersionV4_9_4 || q.AcceptStandardJSONOnly
	return ns.routes.RouteJSON(dst, q.Topic, route.RouteQuery{Standard: standard})
}

// fastHeartbeat is brokerHeartbeat for the fast path: the broker's live
// entry refreshed at now (the fast path's own clock reading), a plain
// SUCCESS (as brokerHeartbeat, whether or not the broker is known).
func (ns *NameServer) fastHeartbeat(cluster, addr string, now int64) bool {
	ns.routes.Heartbeat(cluster, addr, ns.clock.At(now))
	return true
}

// fastDataVersion is queryDataVersion for the fast path: the same refresh
// and comparison (the broker's version compared as bytes first), the
// stored version as the answer's body.
func (ns *NameServer) fastDataVersion(cluster, addr string, body []byte, now int64) ([]byte, bool, bool) {
	return ns.routes.QueryDataVersionJSON(cluster, addr, body, ns.clock.At(now))
}
