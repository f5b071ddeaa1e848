package route

import (
	"fmt"

	log "github.com/sirupsen/logrus"
)

// MaxUnregisterMarks bounds the unregister marks kept (one per broker
// address unregistered over a still-open connection). Past it an applied
// unregister leaves no mark, and a registration sent before it on the same
// connection but applied after it stands, as before the marks existed.
const MaxUnregisterMarks = 4096

// ErrRegisterSuperseded refuses a registration that arrived on its
// connection before an UNREGISTER_BROKER of the same broker which has
// already been applied: the peer's last word was "unregister".
var ErrRegisterSuperseded = fmt.Errorf("%w: a later unregister of this broker on the same connection was applied", ErrRegisterIgnored)

// unregisterMark is the arrival of the last applied UNREGISTER_BROKER of a
// broker address on its connection.
type unregisterMark struct {
	conn ConnID
	seq  uint64
}

// unregisterStale says whether req must be ignored: the registration that
// now stands came after it. On the connection req came from, that is told
// by arrival order (REGISTER then UNREGISTER, however the pool and the
// worker interleave, removes the broker); otherwise by the generation
// captured on arrival (apache/rocketmq#11043: a broker that registered
// again, on a new connection, before the worker ran stays).
func (t *txn) unregisterStale(req UnregisterRequest) bool {
	if req.Generation == UnfencedGeneration {
		return false
	}
	entry, live := t.view().live.get(brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr})
	if live && req.ArrivalSeq != 0 && entry.arrivalSeq != 0 && entry.conn == req.Conn {
		return entry.arrivalSeq > req.ArrivalSeq
	}
	return req.Generation != t.generationOf(brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr})
}

// markUnregistered records an applied unregister that carries its arrival,
// so a registration sent before it on the same connection, still on the
// pool, cannot stand once applied.
func (m *Manager) markUnregistered(req UnregisterRequest) {
	if req.ArrivalSeq == 0 || (req.ConnOpen != nil && !req.ConnOpen()) {
		return
	}
	key := brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr}
	if _, known := m.unregisterMarks[key]; !known && len(m.unregisterMarks) >= MaxUnregisterMarks {
		m.logLater(log.DebugLevel, log.Fields{"cluster": req.ClusterName, "brokerAddr": req.BrokerAddr,
			"limit": MaxUnregisterMarks}, "unregister mark not kept: too many")
		return
	}
	m.unregisterMarks[key] = unregisterMark{conn: req.Conn, seq: req.ArrivalSeq}
}

// supersededRegistration answers ErrRegisterSuperseded for a registration
// older, on its connection, than the applied unregister of its broker.
func (m *Manager) supersededRegistration(req *RegisterBrokerRequest) error {
	mark, ok := m.unregisterMarks[brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr}]
	if ok && req.ArrivalSeq != 0 && mark.conn == req.Conn && req.ArrivalSeq < mark.seq {
		return ErrRegisterSuperseded
	}
	return nil
}

// registrationApplied drops the mark a registration now stands over.
func (m *Manager) registrationApplied(req *RegisterBrokerRequest) {
	if len(m.unregisterMarks) > 0 {
		delete(m.unregisterMarks, brokerAddrInfo{cluster: req.ClusterName, addr: req.BrokerAddr})
	}
}

// dropUnregisterMarks forgets the marks of closed connections: nothing more
// can arrive on them (a registration still on the pool is refused by its
// closed connection).
func (m *Manager) dropUnregisterMarks(conns []ConnID) {
	if len(m.unregisterMarks) == 0 {
		return
	}
	closed := make(map[ConnID]struct{}, len(conns))
	for _, conn := range conns {
		closed[conn] = struct{}{}
	}
	for key, mark := range m.unregisterMarks {
		if _, gone := closed[mark.conn]; gone {
			delete(m.unregisterMarks, key)
		}
	}
}

// latestArrival is the arrival a live entry records after a registration
// req: the later of req's and, on the same connection, the previous entry's
// (the pool may apply two registrations of one connection out of order).
func latestArrival(prev *liveBroker, req *RegisterBrokerRequest) uint64 {
	if prev != nil && prev.conn == req.Conn && prev.arrivalSeq > req.ArrivalSeq {
		return prev.arrivalSeq
	}
	return req.ArrivalSeq
}
