package metrics

import (
	"testing"
	"time"
)

// TestGuardsExported: every figure of GuardCounts is a metric that reads
// the source at scrape time.
func TestGuardsExported(t *testing.T) {
	g := GuardCounts{Evicted: 1, Handshakes: 2, HandshakesRefused: 3, HTTPOpen: 4, HTTPMax: 5, HTTPRefused: 6, HTTPEvicted: 7, HeavyRefused: 8, HeavyMemory: 9}
	src := testSources()
	src.Guards = func() GuardCounts { return g }
	got := gathered(t, New(src, nil, time.Now()))
	for name, want := range map[string]float64{
		"connections_evicted_total": 1, "tls_handshakes": 2, "tls_handshakes_refused_total": 3, "http_connections": 4,
		"http_connections_max": 5, "http_connections_refused_total": 6, "http_connections_evicted_total": 7,
		"http_heavy_views_refused_total": 8, "http_heavy_view_bytes": 9,
	} {
		if v, ok := got[Namespace+"_"+name]; !ok || v != want {
			t.Errorf("%s_%s = %v (%v), want %v", Namespace, name, v, ok, want)
		}
	}
}
