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

func startEviction(routes *route.Manager, brokers *brokerConns, n *notifier, interval time.Duration, log *logrus.Entry) (*evictionJob, error) {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	logger := cronLogger{log}
	// Recover turns a panicking run into a log line; SkipIfStillRunning keeps a
	// slow run from piling up runs behind it. Later runs go on either way.
	c := cron.New(cron.WithLogger(logger), cron.WithChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)))
	_, err := c.AddFunc(fmt.Sprintf("@every %s", interval), func() { scanNotActiveBrokers(routes, brokers, n, log, time.Now()) })
	if err != nil {
		return nil, fmt.Errorf("namesrv: schedule eviction every %s: %w", interval, err)
	}
	c.Start()
	return &evictionJob{cron: c}, nil
}

// scanNotActiveBrokers is one run of the job.
func scanNotActiveBrokers(routes *route.Manager, brokers *brokerConns, n *notifier, log *logrus.Entry, now time.Time) {
	removed := routes.ScanExpired(now)
	for _, b := range removed {
		log.WithFields(logrus.Fields{"cluster": b.ClusterName, "brokerName": b.BrokerName, "brokerAddr": b.BrokerAddr}).
			Warn("broker expired: no registration or heartbeat within its timeout, removed")
		brokers.close(b.Conn)
	}
	n.sendRemoved(removed)
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
