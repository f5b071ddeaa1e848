package namesrv

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/route"
)

const pauseWarning = "eviction ran late: the process was paused; broker deadlines extended by the pause instead of evicting"

// pauseFixture is an eviction job on an injected clock (never started: the
// test calls run itself), with two brokers of a 3 s timeout registered at t0.
type pauseFixture struct {
	job    *evictionJob
	routes *route.Manager
	hook   *logtest.Hook
	t0     time.Time
}

func newPauseFixture(t *testing.T) *pauseFixture {
	logger, hook := logtest.NewNullLogger()
	routes := route.NewManager(route.Config{DefaultHeartbeatTimeout: route.DefaultHeartbeatTimeout})
	n := newNotifier(logrus.NewEntry(logger))
	t.Cleanup(n.close)
	t0 := time.UnixMilli(1_800_000_000_000)
	job := newEvictionJob(routes, newBrokerConns(), n, time.Second, time.Second, func() time.Time { return t0 }, logrus.NewEntry(logger))
	for _, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerB} {
		registerDirectAt(t, routes, b, 3000, t0)
	}
	return &pauseFixture{job: job, routes: routes, hook: hook, t0: t0}
}

func (f *pauseFixture) at(d time.Duration) time.Time { return f.t0.Add(d) }

func (f *pauseFixture) routed(b nstest.Broker) bool {
	_, ok := f.routes.PickupTopicRouteData(b.TopicNames()[0])
	return ok
}

// TestEvictionPauseEvictsNoOne: brokers heard every second, the process
// stopped 8 s; the first run after the resume is 8 s late, extends the
// deadlines, is logged and counted, and removes no one. A broker that stays
// silent afterwards goes one timeout after the resume, not before.
func TestEvictionPauseEvictsNoOne(t *testing.T) {
	f := newPauseFixture(t)
	alive, dead := nstest.BrokerAMaster, nstest.BrokerB
	for s := 1; s <= 2; s++ { // two punctual runs, heartbeats in between
		f.job.run(f.at(time.Duration(s) * time.Second))
		f.routes.Heartbeat(alive.Cluster, alive.Addr, f.at(time.Duration(s)*time.Second+500*time.Millisecond))
		f.routes.Heartbeat(dead.Cluster, dead.Addr, f.at(time.Duration(s)*time.Second+500*time.Millisecond))
	}
	if f.job.pauses.Load() != 0 {
		t.Fatal("punctual runs counted as pauses")
	}
	resume := f.at(11 * time.Second) // stopped from 2.5 s to 11 s: the run due at 3 s comes at 11 s
	f.job.run(resume)
	if !f.routed(alive) || !f.routed(dead) {
		t.Fatal("the run after the pause evicted brokers it could not hear from")
	}
	if f.job.pauses.Load() != 1 || countLogged(f.hook, pauseWarning) != 1 {
		t.Fatalf("pause counted %d times, logged %d times; want once", f.job.pauses.Load(), countLogged(f.hook, pauseWarning))
	}
	// The queued heartbeats of the live broker are read after the resume;
	// the other one died during the pause.
	for s := 1; s <= 4; s++ {
		f.routes.Heartbeat(alive.Cluster, alive.Addr, resume.Add(time.Duration(s)*time.Second-500*time.Millisecond))
		f.job.run(resume.Add(time.Duration(s) * time.Second))
		if wantDead := s < 4; f.routed(dead) != wantDead {
			t.Fatalf("%d s after the resume: dead broker routed=%v, want %v (one 3 s timeout after the resume)", s, f.routed(dead), wantDead)
		}
		if !f.routed(alive) {
			t.Fatalf("%d s after the resume the live broker was evicted", s)
		}
	}
	if f.job.pauses.Load() != 1 {
		t.Fatalf("runs after the resume counted as pauses: %d", f.job.pauses.Load())
	}
}

// TestEvictionPauseRightAfterStart: the schedule starts when the job is
// made, so a process stopped before its first run gets the same grace.
func TestEvictionPauseRightAfterStart(t *testing.T) {
	f := newPauseFixture(t)
	f.job.run(f.at(9 * time.Second))
	if !f.routed(nstest.BrokerAMaster) || f.job.pauses.Load() != 1 {
		t.Fatalf("first run 8 s late: routed=%v pauses=%d", f.routed(nstest.BrokerAMaster), f.job.pauses.Load())
	}
}

// TestEvictionWithoutPauseStillEvicts: a late run within the threshold is no
// pause, and a silent broker is evicted as before.
func TestEvictionWithoutPauseStillEvicts(t *testing.T) {
	f := newPauseFixture(t)
	for s := 1; s <= 3; s++ {
		f.job.run(f.at(time.Duration(s) * time.Second))
	}
	f.job.run(f.at(4*time.Second + 900*time.Millisecond)) // 900 ms late, threshold 1 s
	if f.job.pauses.Load() != 0 {
		t.Fatal("a run 900 ms late counted as a pause")
	}
	if f.routed(nstest.BrokerAMaster) || f.routed(nstest.BrokerB) {
		t.Fatal("brokers silent 4.9 s with a 3 s timeout were kept")
	}
}

// TestPausesDetectedStartsAtZero: the accessor the metrics read.
func TestPausesDetectedStartsAtZero(t *testing.T) {
	s := startServer(t, nil)
	if n := s.ns.PausesDetected(); n != 0 {
		t.Fatalf("a fresh server reports %d pauses", n)
	}
}
