package metrics

import "github.com/prometheus/client_golang/prometheus"

// GuardCounts are the figures of the bounds that keep descriptors and the
// side port's memory in hand: silent connections closed for newcomers, TLS
// handshakes in progress, the side port's connections and heavy views.
type GuardCounts struct {
	Evicted           uint64 // remoting connections silent since they connected, closed for newcomers at maxConnections
	Handshakes        int64  // TLS handshakes in progress on the remoting port
	HandshakesRefused uint64 // connections closed at once at tlsHandshakeMaxConcurrent
	HTTPOpen, HTTPMax int64  // the side port's open connections and its cap (httpMaxConnections)
	HTTPRefused       uint64 // side port connections closed at once at the cap
	HTTPEvicted       uint64 // quiet side port connections closed for newcomers
	HeavyRefused      uint64 // heavy views answered 503 (httpHeavyViewConcurrency, httpHeavyViewMemoryLimit)
	HeavyMemory       int64  // bytes the heavy views in flight hold, estimated
}

// registerGuards exports GuardCounts, each read at scrape time (atomic
// loads only).
func registerGuards(f factory, read func() GuardCounts) {
	if read == nil {
		return
	}
	gauge := func(name, help string, v func(GuardCounts) int64) {
		f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help},
			func() float64 { return float64(v(read())) }))
	}
	counter := func(name, help string, v func(GuardCounts) uint64) {
		f.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help},
			func() float64 { return float64(v(read())) }))
	}
	counter("connections_evicted_total", "Connections silent since they connected (or in their TLS handshake) closed for a newcomer at maxConnections.",
		func(g GuardCounts) uint64 { return g.Evicted })
	gauge("tls_handshakes", "TLS handshakes in progress on the remoting port (at most tlsHandshakeMaxConcurrent).",
		func(g GuardCounts) int64 { return g.Handshakes })
	counter("tls_handshakes_refused_total", "Connections closed at once for being past tlsHandshakeMaxConcurrent.",
		func(g GuardCounts) uint64 { return g.HandshakesRefused })
	gauge("http_connections", "Open connections of the HTTP side port.", func(g GuardCounts) int64 { return g.HTTPOpen })
	gauge("http_connections_max", "The HTTP side port's connection cap in effect (httpMaxConnections, or less under the open file limit).",
		func(g GuardCounts) int64 { return g.HTTPMax })
	counter("http_connections_refused_total", "HTTP side port connections closed at once at the cap.",
		func(g GuardCounts) uint64 { return g.HTTPRefused })
	counter("http_connections_evicted_total", "Quiet HTTP side port connections closed for a newcomer at the cap.",
		func(g GuardCounts) uint64 { return g.HTTPEvicted })
	counter("http_heavy_views_refused_total", "Heavy views (/v1/debug, /v1/clusters, /v1/kv, ?format=java routes) answered 503 for their bounds.",
		func(g GuardCounts) uint64 { return g.HeavyRefused })
	gauge("http_heavy_view_bytes", "Bytes the heavy views in flight hold, estimated (at most httpHeavyViewMemoryLimit).",
		func(g GuardCounts) int64 { return g.HeavyMemory })
}
