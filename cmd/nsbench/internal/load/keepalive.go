package load

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// KeepAliveInterval is how often KeepAlive heartbeats every seeded broker:
// a Java broker's registration period. The NameServer drops a broker it has
// not heard from for 120 s, and a run of many phases outlasts that (the
// suite's route phases alone take ~150 s).
const KeepAliveInterval = 30 * time.Second

// KeepAlive sends a BROKER_HEARTBEAT for every broker of l on its own
// connection every interval until stop is called, as live brokers do, so
// that a long run keeps its seeded brokers registered (a heartbeat moves
// only a broker's last-heard time). stop waits for a round in progress and
// returns how many heartbeats failed or were refused.
func KeepAlive(ctx context.Context, l *Layout, brokerClients []Invoker, interval time.Duration) (stop func() int) {
	ctx, cancel := context.WithCancel(ctx)
	var failed atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			_ = forEach(len(brokerClients), seedParallelism, func(i int) error {
				resp, err := brokerClients[i].Invoke(ctx, HeartbeatRequest(l.Brokers()[i]))
				if ctx.Err() == nil && (err != nil || resp.Code != remoting.SUCCESS) {
					failed.Add(1)
				}
				return nil
			})
		}
	}()
	return func() int {
		cancel()
		wg.Wait()
		return int(failed.Load())
	}
}
