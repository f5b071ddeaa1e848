package namesrv

import (
	"sync/atomic"

	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
)

// notifyCounts counts the notifier's recipients by what became of them,
// in atomics the metrics read at scrape time.
type notifyCounts struct {
	sent, failed, dropped, skipped atomic.Uint64
}

// read is the counts for the metrics.
func (c *notifyCounts) read() metrics.NotifyCounts {
	return metrics.NotifyCounts{Sent: c.sent.Load(), Failed: c.failed.Load(), Dropped: c.dropped.Load(), Skipped: c.skipped.Load()}
}

// sendDone counts one send's result.
func (c *notifyCounts) sendDone(err error) {
	if err != nil {
		c.failed.Add(1)
		return
	}
	c.sent.Add(1)
}
