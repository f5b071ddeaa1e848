package namesrv

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/route"
)

// evictionJob removes brokers silent for longer than their heartbeat timeout
// and closes their connections, every scanNotActiveBrokerInterval. It runs on
// a monotonic timer (a wall-clock step neither stops nor hurries it) and
// reads the daemon's monotonic clock, the same one every liveness time is
// stored with. When a run comes late by more than pauseDetectThresholdMillis
// the process was stopped (SIGSTOP, a frozen VM, a stalled machine) and could
// not read the heartbeats sent meanwhile: the run then extends every
// broker's deadline by the pause (route.Manager.ExtendDeadlines) before it
// scans, so a pause evicts no one, and a broker that died during it goes one
// timeout after the resume.
type evictionJob struct {
	routes   *route.Manager
	brokers  *brokerConns
	notifier *notifier
	log      *logrus.Entry
	now      func() time.Time
	schedule runSchedule

	// onScan, when set, sees every scan's duration and evictions (metrics).
	onScan func(took time.Duration, evicted int)

	pauses atomic.Int64 // late runs seen, for PausesDetected
	stopCh chan struct{}
	done   chan struct{}
}

func newEvictionJob(routes *route.Manager, brokers *brokerConns, n *notifier, interval, threshold time.Duration,
	now func() time.Time, log *logrus.Entry) *evictionJob {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	return &evictionJob{routes: routes, brokers: brokers, notifier: n, log: log, now: now,
		schedule: runSchedule{interval: interval, threshold: threshold, last: now()},
		stopCh:   make(chan struct{}), done: make(chan struct{})}
}

// start runs the job until stop. The first run is one interval after the job
// was made, and that first interval is watched like every other: a process
// stopped right after it started gets the same grace.
func (e *evictionJob) start() {
	go func() {
		defer close(e.done)
		timer := time.NewTimer(e.schedule.interval)
		defer timer.Stop()
		for {
			select {
			case <-e.stopCh:
				return
			case <-timer.C:
			}
			// The next run is due one interval after this one began; a run
			// that took longer is followed at once, and never overlapped.
			began := e.now()
			e.run(began)
			timer.Reset(max(0, e.schedule.interval-e.now().Sub(began)))
		}
	}()
}

// run is one run of the job at now. A panicking run is logged and the job
// goes on.
func (e *evictionJob) run(now time.Time) {
	defer func() {
		if r := recover(); r != nil {
			e.log.WithField("panic", fmt.Sprint(r)).Error("eviction run panicked; the next run goes on")
		}
	}()
	if lastRun, paused := e.schedule.observe(now); paused {
		brokers := e.routes.ExtendDeadlines(lastRun, now)
		count := e.pauses.Add(1)
		e.log.WithFields(logrus.Fields{"pause": now.Sub(lastRun).Round(time.Millisecond).String(),
			"late":    (now.Sub(lastRun) - e.schedule.interval).Round(time.Millisecond).String(),
			"brokers": brokers, "pausesDetected": count}).
			Warn("eviction ran late: the process was paused; broker deadlines extended by the pause instead of evicting")
	}
	evicted := scanNotActiveBrokers(e.routes, e.brokers, e.notifier, e.log, now)
	if e.onScan != nil {
		e.onScan(e.now().Sub(now), evicted)
	}
}

// stop waits for a running scan to finish, within ctx.
func (e *evictionJob) stop(ctx context.Context) {
	select {
	case <-e.stopCh:
	default:
		close(e.stopCh)
	}
	select {
	case <-e.done:
	case <-ctx.Done():
	}
}

// runSchedule tells a run that comes on time from one that comes after a
// pause. Owned by the job's goroutine.
type runSchedule struct {
	interval  time.Duration // scanNotActiveBrokerInterval
	threshold time.Duration // pauseDetectThresholdMillis
	last      time.Time     // when the previous run began (the job's start before the first)
}

// observe records a run beginning at now and returns when the previous one
// began, and whether this one is later than its schedule by more than the
// threshold.
func (s *runSchedule) observe(now time.Time) (lastRun time.Time, paused bool) {
	lastRun, s.last = s.last, now
	return lastRun, now.Sub(lastRun)-s.interval > s.threshold
}

// scanNotActiveBrokers is the eviction proper of one run; it returns how
// many brokers it removed.
func scanNotActiveBrokers(routes *route.Manager, brokers *brokerConns, n *notifier, log *logrus.Entry, now time.Time) int {
	removed := routes.ScanExpired(now)
	for _, b := range removed {
		log.WithFields(logrus.Fields{"cluster": b.ClusterName, "brokerName": b.BrokerName, "brokerAddr": b.BrokerAddr}).
			Warn("broker expired: no registration or heartbeat within its timeout, removed")
		brokers.close(b.Conn)
	}
	n.sendRemoved(removed)
	return len(removed)
}
