package metrics

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// Results of a request (the "result" label), by the answer's code.
const (
	resultSuccess = iota
	resultTopicNotExist
	resultSystemBusy
	resultDenied
	resultGoAway
	resultError
	resultCount
)

var resultNames = [resultCount]string{"success", "topic_not_exist", "system_busy", "denied", "go_away", "error"}

// resultOf maps an answer's code to its result; an unanswered request (a
// one-way one, or a handler answering nothing) counts as a success.
func resultOf(code int32) int {
	switch code {
	case remoting.SUCCESS, remoting.NoAnswer:
		return resultSuccess
	case remoting.TOPIC_NOT_EXIST:
		return resultTopicNotExist
	case remoting.SYSTEM_BUSY:
		return resultSystemBusy
	case remoting.NO_PERMISSION:
		return resultDenied
	case remoting.GO_AWAY:
		return resultGoAway
	}
	return resultError
}

// codeTableSize bounds the request codes resolved by index; every named code
// is below it, and any other code (named or not) is counted as "unknown", so
// a peer sending random codes cannot grow the label set.
const codeTableSize = 2048

// requestStats counts requests by code and result in plain atomics, read by
// its collector at scrape time, and observes handler time in histograms
// resolved per code at New.
type requestStats struct {
	names  []string              // slot -> code name; slot 0 is "unknown"
	slotOf [codeTableSize]uint16 // code -> slot (0: unknown)
	counts [][resultCount]atomic.Uint64
	// latency holds each code's histogram, made on its first request so a
	// scrape lists only the codes seen.
	latency    []atomic.Pointer[prometheus.Observer]
	latencyVec *prometheus.HistogramVec

	responseBytes atomic.Uint64

	countDesc, bytesDesc *prometheus.Desc
}

func newRequestStats(latency *prometheus.HistogramVec) *requestStats {
	r := &requestStats{names: []string{"unknown"}}
	for _, code := range remoting.RequestCodes() {
		if code < 0 || code >= codeTableSize {
			continue
		}
		r.slotOf[code] = uint16(len(r.names))
		r.names = append(r.names, remoting.RequestCodeName(code))
	}
	r.counts = make([][resultCount]atomic.Uint64, len(r.names))
	r.latency = make([]atomic.Pointer[prometheus.Observer], len(r.names))
	r.latencyVec = latency
	r.countDesc = prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "requests_total"),
		"Requests answered, by request code name and result (success, topic_not_exist, system_busy, denied, go_away, error).",
		[]string{"code", "result"}, nil)
	r.bytesDesc = prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "response_bytes_total"),
		"Bytes of answer frames written.", nil, nil)
	return r
}

func (r *requestStats) slot(code int32) int {
	if code < 0 || code >= codeTableSize {
		return 0
	}
	return int(r.slotOf[code])
}

// answered counts one request: no lock, no allocation.
func (r *requestStats) answered(requestCode, responseCode int32, took time.Duration, bytes int) {
	slot := r.slot(requestCode)
	r.counts[slot][resultOf(responseCode)].Add(1)
	if took > 0 {
		r.latencyOf(slot).Observe(took.Seconds())
	}
	if bytes > 0 {
		r.responseBytes.Add(uint64(bytes))
	}
}

// latencyOf returns the histogram of slot, making it on first use (a racing
// duplicate WithLabelValues returns the same histogram).
func (r *requestStats) latencyOf(slot int) prometheus.Observer {
	if h := r.latency[slot].Load(); h != nil {
		return *h
	}
	h := r.latencyVec.WithLabelValues(r.names[slot])
	r.latency[slot].Store(&h)
	return h
}

// total returns the requests of code answered with any result.
func (r *requestStats) total(code int32) uint64 {
	var n uint64
	for i := range resultCount {
		n += r.counts[r.slot(code)][i].Load()
	}
	return n
}

func (r *requestStats) Describe(ch chan<- *prometheus.Desc) {
	ch <- r.countDesc
	ch <- r.bytesDesc
}

// Collect reports only the (code, result) pairs seen so far, so a scrape is
// not 200 lines of zeros.
func (r *requestStats) Collect(ch chan<- prometheus.Metric) {
	for slot, name := range r.names {
		for result := range resultCount {
			if n := r.counts[slot][result].Load(); n > 0 {
				ch <- prometheus.MustNewConstMetric(r.countDesc, prometheus.CounterValue, float64(n), name, resultNames[result])
			}
		}
	}
	ch <- prometheus.MustNewConstMetric(r.bytesDesc, prometheus.CounterValue, float64(r.responseBytes.Load()))
}
