package metrics

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// BenchmarkAnswered is the per-request cost the metrics add to the route
// query path, from every processor at once (the event loops share the
// counters).
func BenchmarkAnswered(b *testing.B) {
	m := New(testSources(), nil, time.Now())
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Answered(remoting.GET_ROUTEINFO_BY_TOPIC, remoting.SUCCESS, 3*time.Microsecond, 1900)
		}
	})
}
