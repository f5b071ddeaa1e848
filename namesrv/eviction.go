package namesrv

import (
	"context"
	"fmt"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/route"
)

// evictionJob removes brokers silent for longer than their heartbeat timeout
// and closes their connections, every scanNotActiveBrokerInterval.
type evictionJob struct {
	cron *cron.Cron
}

func startEviction(routes *route.Manager, brokers *brokerConns, n *notifier, interval time.Duration, log *logrus.Entry,
	onScan func(took time.Duration, evicted int)) *evictionJob {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	logger := cronLogger{log}
	// SkipIfStillRunning keeps a slow run from piling up runs behind it;
	// Recover, inside it, turns a panicking run into a log line. The order
	// matters: cron v3.0.1's SkipIfStillRunning hands its token back only when
	// the job returns, so a panic passing through it would skip every later run.
	c := cron.New(cron.WithLogger(logger), cron.WithChain(cron.SkipIfStillRunning(logger), cron.Recover(logger)))
	// cron's "@every" spec rounds to whole seconds (and to at least one);
	// scanNotActiveBrokerInterval is in milliseconds, so schedule it exactly.
	c.Schedule(every(interval), cron.FuncJob(func() {
		started := time.Now()
		evicted := scanNotActiveBrokers(routes, brokers, n, log, started)
		if onScan != nil {
			onScan(time.Since(started), evicted)
		}
	}))
	c.Start()
	return &evictionJob{cron: c}
}

// every is cron's constant-delay schedule without its rounding to seconds.
type every time.Duration

// Next is the time of the run after one at t.
func (d every) Next(t time.Time) time.Time { return t.Add(time.Duration(d)) }

// scanNotActiveBrokers is one run of the job; it returns how many brokers it removed.
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

// stop waits for a running scan to finish, within ctx.
func (e *evictionJob) stop(ctx context.Context) {
	select {
	case <-e.cron.Stop().Done():
	case <-ctx.Done():
	}
}

// cronLogger routes cron's own messages through logrus.
type cronLogger struct{ log *logrus.Entry }

func (l cronLogger) Info(msg string, keysAndValues ...interface{}) {
	l.log.WithFields(kvFields(keysAndValues)).Debug(msg)
}

func (l cronLogger) Error(err error, msg string, keysAndValues ...interface{}) {
	l.log.WithFields(kvFields(keysAndValues)).WithError(err).Error(msg)
}

func kvFields(keysAndValues []interface{}) logrus.Fields {
	fields := logrus.Fields{}
	for i := 0; i+1 < len(keysAndValues); i += 2 {
		fields[fmt.Sprint(keysAndValues[i])] = keysAndValues[i+1]
	}
	return fields
}
