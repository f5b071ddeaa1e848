package metrics

import "github.com/prometheus/client_golang/prometheus"

// FrameCounts are the request memory figures of frames still arriving
// (issue 21 item 4): the bytes they hold, and the connections closed for
// them, by reason (remoting.FrameCloseReasons: stalled, slow, memory).
type FrameCounts struct {
	Arriving int64
	Closes   map[string]uint64
}

// registerFrames exports FrameCounts read at scrape time; read nil exports none.
func registerFrames(f factory, read func() FrameCounts, reasons []string) {
	if read == nil {
		return
	}
	f.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "request_memory_arriving_bytes",
		Help: "Request bytes held by frames still arriving (part of request_memory_bytes), small frames from their first byte."},
		func() float64 { return float64(read().Arriving) }))
	for _, reason := range reasons {
		f.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: "frame_closes_total",
			Help:        "Connections closed for their frames: a large frame stalled past largeFrameStallTimeoutMillis, slower than largeFrameMinBytesPerSecond, or a partial frame with no room in the request memory.",
			ConstLabels: prometheus.Labels{"reason": reason}},
			func() float64 { return float64(read().Closes[reason]) }))
	}
}
