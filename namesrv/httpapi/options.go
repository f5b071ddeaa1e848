package httpapi

import "time"

// Defaults of Options (README "Limits"; the namesrv keys httpMaxConnections,
// httpIdleTimeoutSeconds, httpHeavyViewConcurrency, httpHeavyViewMemoryLimit).
const (
	// DefaultMaxConnections bounds the side port's open connections: far
	// above what probes, a Prometheus server and a few dashboards hold,
	// small next to the remoting port's, whose cap leaves room for it.
	DefaultMaxConnections = 128
	// DefaultIdleTimeout closes kept-alive connections left unused: a
	// scrape every 15 s reconnects, an idle flood lets go within seconds.
	DefaultIdleTimeout = 10 * time.Second
	// DefaultHeavyViews is how many heavy views (the whole-table dumps and
	// unpaged lists, see heavy.go) run at once.
	DefaultHeavyViews = 2
	// DefaultHeavyMemory bounds the bytes the heavy views in flight hold
	// together (their estimated snapshot copies and answers).
	DefaultHeavyMemory = 64 << 20
	// ProbeConcurrent bounds the probes (/healthz, /readyz, /metrics)
	// served at once, apart from MaxConcurrent: they never wait for slots
	// the other endpoints hold.
	ProbeConcurrent = 16
	// QuietEvictAge is how long a connection must have been quiet (nothing
	// sent since it connected, or idle between requests) before a newcomer
	// past the cap may close it.
	QuietEvictAge = time.Second
)

// Options are the side port's bounds; zero fields take the defaults.
type Options struct {
	MaxConnections int
	IdleTimeout    time.Duration
	HeavyViews     int
	HeavyMemory    int64
}

func (o Options) withDefaults() Options {
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.HeavyViews <= 0 {
		o.HeavyViews = DefaultHeavyViews
	}
	if o.HeavyMemory <= 0 {
		o.HeavyMemory = DefaultHeavyMemory
	}
	return o
}
