package node

import (
	"slices"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// Election triggers, as the metrics and logs name them.
const (
	triggerBroker         = "broker"
	triggerAdmin          = "admin"
	triggerConnClosed     = "connectionClosed"
	triggerExpired        = "heartbeatExpired"
	triggerInactiveMaster = "inactiveMaster"
)

// Limits of the controller-triggered elections.
const (
	// electQueue bounds the pending dead-broker events; past it one is
	// dropped with a warning (the inactive-master scan finds the set again).
	electQueue = 1024
	// electRetryPause is the wait between two attempts of one election
	// (electMasterMaxRetryCount attempts; Java retries at once, after each
	// attempt's answer or its 3 s timeout).
	electRetryPause = 500 * time.Millisecond
	// expiryMaxWait bounds the wait between two heartbeat expiry checks,
	// whatever scanNotActiveBrokerInterval says (Java waits the full
	// period): a member whose deadline the check did not foresee (a new one,
	// or a shorter timeout in a heartbeat) is acted on within it.
	expiryMaxWait = time.Second
	// expiryMinWait is the shortest wait between two checks, so members
	// with past or equal deadlines cannot make the loop spin.
	expiryMinWait = 10 * time.Millisecond
)

// electJob is a broker found dead (brokerID set: elect only if it is the
// recorded master) or a set to re-elect outright (brokerID nil).
type electJob struct {
	key      controller.BrokerKey
	brokerID *int64
	trigger  string
	// seenAt is when this node saw the close or the expiry (nowMillis);
	// timeoutMillis the broker's heartbeat timeout as this node held it
	// then (0: unknown, the scan's jobs).
	seenAt        int64
	timeoutMillis int64
}

// elector runs controller-triggered elections one at a time on the leader.
type elector struct {
	n    *Node
	jobs chan electJob
}

func newElector(n *Node) *elector { return &elector{n: n, jobs: make(chan electJob, electQueue)} }

func (e *elector) enqueue(job electJob) {
	select {
	case e.jobs <- job:
	default:
		e.n.log.WithFields(logrus.Fields{"brokerName": job.key.BrokerName, "trigger": job.trigger}).
			Warn("election queue full: dead-broker event dropped (the inactive-master scan retries it)")
	}
}

func (e *elector) run() {
	defer e.n.wg.Done()
	for {
		select {
		case <-e.n.stop:
			return
		case job := <-e.jobs:
			e.handle(job)
		}
	}
}

func (e *elector) handle(job electJob) {
	n := e.n
	fields := logrus.Fields{"clusterName": job.key.ClusterName, "brokerName": job.key.BrokerName, "trigger": job.trigger}
	if !n.Serving() {
		n.log.WithFields(fields).Debug("broker inactive; not the leader, no election")
		return
	}
	master, members, ok := n.deadMaster(job)
	if !ok {
		if job.brokerID != nil {
			n.log.WithFields(fields).WithField("brokerId", *job.brokerID).Info("broker inactive; not the master, no election")
		}
		return
	}
	// The group's verdict, not this node's alone (agree.go).
	if !n.groupSilent(master, members, job, fields) {
		return
	}
	// Java's triggerElectMaster: every answer but success is retried, up
	// to electMasterMaxRetryCount attempts. Each MASTER_NOT_AVAILABLE
	// commits a "no master" election that bumps masterEpoch, in Java as
	// here; MASTER_STILL_EXIST and an unknown set change nothing.
	for attempt := 1; attempt <= n.Config().ElectMasterMaxRetryCount; attempt++ {
		if attempt > 1 {
			select {
			case <-n.stop:
				return
			case <-time.After(electRetryPause):
			}
			if !n.Serving() {
				n.log.WithFields(fields).Info("controller-triggered election: no longer the leader, no retry")
				return
			}
		}
		req := wire.NewElectMasterRequest()
		req.ClusterName, req.BrokerName = job.key.ClusterName, job.key.BrokerName
		res, err := n.electMaster(req, job.trigger)
		if err == nil && res.Code == controller.CodeSuccess {
			return
		}
		entry := n.log.WithFields(fields).WithField("attempt", attempt)
		if err != nil {
			entry.WithError(err).Warn("controller-triggered election failed")
		} else {
			entry.WithFields(logrus.Fields{"code": res.Code, "remark": res.Remark}).Warn("controller-triggered election elected nobody")
		}
	}
}

// deadMaster reads, for a job, the master it is about and the set's
// members; false when there is nothing to elect: the dead broker is not the
// recorded master, or the scan's finding is stale by now (another trigger
// of the same death may have elected, or cleared the master, meanwhile: a
// second cleared-master election would bump masterEpoch again).
func (n *Node) deadMaster(job electJob) (controller.BrokerKey, []int64, bool) {
	var (
		master  controller.BrokerKey
		members []int64
		ok      bool
	)
	n.fsm.Read(func(s *controller.State) {
		ss, known := s.SyncStateInfo(job.key.BrokerName)
		if !known || !ss.HasMaster {
			return
		}
		if job.brokerID != nil {
			ok = ss.MasterBrokerID == *job.brokerID
		} else {
			ok = slices.Contains(s.ScanNeedReelect(n.live), job.key.BrokerName)
		}
		master = controller.BrokerKey{ClusterName: ss.ClusterName, BrokerName: job.key.BrokerName, BrokerID: ss.MasterBrokerID}
		if ri, found := s.ReplicaInfo(job.key.BrokerName); found {
			members = ri.IDs()
		}
	})
	return master, members, ok
}

// brokerInactive is every dead-broker trigger's end (Java's onBrokerInactive):
// a follower only drops the entry; the leader asks the group (agree.go).
func (n *Node) brokerInactive(gone controller.ExpiredEntry, trigger string, seenAt int64) {
	key := gone.Key
	n.log.WithFields(logrus.Fields{"clusterName": key.ClusterName, "brokerName": key.BrokerName, "brokerId": key.BrokerID,
		"trigger": trigger, "leader": n.Serving()}).Info("broker inactive")
	if !n.Serving() {
		return
	}
	id := key.BrokerID
	n.elector.enqueue(electJob{key: key, brokerID: &id, trigger: trigger, seenAt: seenAt, timeoutMillis: gone.Entry.HeartbeatTimeoutMill})
}

// connClosed is the fast trigger: the members that heartbeated on a closed
// connection are dead at once, unless another node still hears them.
func (n *Node) connClosed(conn uint64) {
	now := nowMillis()
	for _, gone := range n.live.closed(conn) {
		n.brokerInactive(gone, triggerConnClosed, now)
	}
}

// scanHeartbeats expires silent members.
func (n *Node) scanHeartbeats() {
	now := nowMillis()
	for _, gone := range n.live.expire() {
		n.brokerInactive(gone, triggerExpired, now)
	}
}

// expiryWait is the wait before the next expiry check: Java's period
// (scanNotActiveBrokerInterval), cut to expiryMaxWait, and cut further to
// the earliest member's deadline, so a silent master is found within
// milliseconds of its heartbeat timeout instead of up to a period later.
func expiryWait(period, untilNext time.Duration, held bool) time.Duration {
	wait := min(period, expiryMaxWait)
	if held && untilNext < wait {
		wait = max(untilNext, expiryMinWait)
	}
	return wait
}

// expireHeartbeats runs scanHeartbeats at each expiryWait until the node stops.
func (n *Node) expireHeartbeats() {
	defer n.wg.Done()
	period := time.Duration(n.Config().ScanNotActiveBrokerInterval) * time.Millisecond
	next := func() time.Duration { until, held := n.live.untilNextExpiry(); return expiryWait(period, until, held) }
	timer := time.NewTimer(next())
	defer timer.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-timer.C:
			n.scanHeartbeats()
			timer.Reset(next())
		}
	}
}

// scanInactiveMasters is the leader's scan every scanInactiveMasterInterval
// for sets whose master is dead while a member lives, after taking over
// what the other nodes hear of the members it does not (a network call:
// the scan runs on its own goroutine).
func (n *Node) scanInactiveMasters() {
	if !n.Serving() {
		return
	}
	n.refreshUnheard()
	var jobs []electJob
	n.fsm.Read(func(s *controller.State) {
		for _, name := range s.ScanNeedReelect(n.live) {
			ri, _ := s.ReplicaInfo(name)
			jobs = append(jobs, electJob{key: controller.BrokerKey{ClusterName: ri.ClusterName, BrokerName: name},
				trigger: triggerInactiveMaster})
		}
	})
	for _, job := range jobs {
		n.elector.enqueue(job)
	}
}

// every runs fn each period until the node stops.
func (n *Node) every(period time.Duration, fn func()) {
	defer n.wg.Done()
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-tick.C:
			fn()
		}
	}
}
