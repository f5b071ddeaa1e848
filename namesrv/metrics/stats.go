package metrics

import (
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// The dashboard's charts come from a small ring of samples the NameServer
// takes of its own counters, so no Prometheus server is needed to see the
// last minutes.
const (
	// StatsInterval is how often a sample is taken.
	StatsInterval = 5 * time.Second
	// StatsSamples is how many samples are kept: 15 minutes at StatsInterval
	// (180 samples of 48 bytes: under 9 KiB).
	StatsSamples = 180
)

// Sample is one reading of the counters the dashboard charts.
type Sample struct {
	UnixMillis    int64  `json:"t"`
	RouteQueries  uint64 `json:"routeQueries"`  // GET_ROUTEINFO_BY_TOPIC requests so far
	Registrations uint64 `json:"registrations"` // REGISTER_BROKER requests so far
	LiveBrokers   int    `json:"liveBrokers"`
	Topics        int    `json:"topics"`
}

// Stats is the ring of samples; its goroutine is stopped by Stop.
type Stats struct {
	m   *Metrics
	src Sources

	mu      sync.Mutex
	samples []Sample // oldest first, at most StatsSamples

	done, stopped chan struct{}
}

// StartStats takes a sample now and every interval until Stop.
func (m *Metrics) StartStats(src Sources, interval time.Duration) *Stats {
	s := &Stats{m: m, src: src, done: make(chan struct{}), stopped: make(chan struct{})}
	s.take(time.Now())
	go s.run(interval)
	return s
}

func (s *Stats) run(interval time.Duration) {
	defer close(s.stopped)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case now := <-ticker.C:
			s.take(now)
		case <-s.done:
			return
		}
	}
}

// current reads the counters now.
func (s *Stats) current(now time.Time) Sample {
	counts := s.src.Counts()
	return Sample{
		UnixMillis:    now.UnixMilli(),
		RouteQueries:  s.m.RequestsOf(remoting.GET_ROUTEINFO_BY_TOPIC),
		Registrations: s.m.RequestsOf(remoting.REGISTER_BROKER),
		LiveBrokers:   counts.LiveBrokers,
		Topics:        counts.Topics,
	}
}

func (s *Stats) take(now time.Time) {
	sample := s.current(now)
	s.mu.Lock()
	if len(s.samples) == StatsSamples {
		copy(s.samples, s.samples[1:])
		s.samples = s.samples[:StatsSamples-1]
	}
	s.samples = append(s.samples, sample)
	s.mu.Unlock()
}

// Samples returns a copy of the ring, oldest first, with a last sample
// taken now so the newest point is current.
func (s *Stats) Samples() []Sample {
	s.mu.Lock()
	out := append(make([]Sample, 0, len(s.samples)+1), s.samples...)
	s.mu.Unlock()
	return append(out, s.current(time.Now()))
}

// Stop ends the sampling goroutine.
func (s *Stats) Stop() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	<-s.stopped
}
