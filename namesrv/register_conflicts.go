package namesrv

import (
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Broker id conflicts (protocol.md 4.3 step 7, Java's rule since
// apache/rocketmq#6317): a registration for a broker id another live
// address holds takes it when its stateVersion is not older than the
// holder's, and is ignored, answered 0 without masterAddr, when it is.
// RocketMQ 5's controller-mode failover depends on the first: the new
// master registers as id 0 with stateVersion = its master epoch while the
// old master may still be connected. Both are logged (rate-limited) and
// counted in broker_id_conflicts_total. What keeps a stranger from taking
// a route over is the ACL broker-control rule, not this.

// tookOver logs and counts a registration that took its broker id from a
// live holder.
func (ns *NameServer) tookOver(conn *remoting.Conn, req *remoting.Command, t *route.BrokerIDTakeover) {
	ns.obs.metrics.BrokerIDConflict(metrics.ConflictTakenOver)
	ns.warn(logrus.Fields{"brokerAddr": truncated(req.ExtFields["brokerAddr"]), "brokerName": truncated(req.ExtFields["brokerName"]),
		"brokerId": req.ExtFields["brokerId"], "peer": conn.RemoteAddr(), "previousAddr": t.PreviousAddr,
		"previousStateVersion": t.PreviousStateVersion, "stateVersion": t.StateVersion}, nil,
		"register broker took the broker id over from a live broker (stateVersion not older)")
}

// staleStateVersion answers a registration ignored for its older
// stateVersion as Java does: code 0, no masterAddr. It is logged and
// counted (as a refusal too: it changed nothing).
func (ns *NameServer) staleStateVersion(req *remoting.Command, fields logrus.Fields, err error, outcome *registrationOutcome) *remoting.Command {
	outcome.refused(metrics.RefusedIgnored)
	ns.obs.metrics.BrokerIDConflict(metrics.ConflictIgnored)
	ns.warn(fields, err, "register broker ignored: an older stateVersion than the broker id's live holder")
	return withExt(success(req), &registerBrokerResponseHeader{})
}

// warn writes a per-request warning through the rate limit of its message.
func (ns *NameServer) warn(fields logrus.Fields, err error, msg string) {
	ns.warnings.Warn(ns.log, fields, err, msg)
}
