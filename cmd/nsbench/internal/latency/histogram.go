// Package latency records request latencies in a fixed-size log-linear
// histogram (HDR style): recording is one increment, memory does not grow
// with the number of samples, and every percentile is within 1% of the exact
// value. Each load worker owns one Histogram; they are merged at the end, so
// recording needs no lock.
package latency

import (
	"math"
	"math/bits"
	"time"
)

// subBucketBits sets the precision: 2^7 = 128 sub-buckets per power of two
// keep the relative error of a bucket below 1/128.
const subBucketBits = 7

const (
	subBuckets = 1 << subBucketBits
	// exactLimit: values below it get a bucket of their own.
	exactLimit = 2 * subBuckets
	// maxShift covers values up to 2^40 ns (about 18 minutes); larger ones
	// are clamped, which a benchmark never reaches.
	maxShift   = 40 - subBucketBits - 1
	numBuckets = maxShift*subBuckets + exactLimit
	maxValue   = int64(1)<<40 - 1
)

// Histogram counts latencies. The zero value is empty and ready to use; it
// is not safe for concurrent use.
type Histogram struct {
	counts [numBuckets]uint64
	total  uint64
	sum    int64
	min    int64
	max    int64
}

// bucketOf maps a value in nanoseconds to its bucket index.
func bucketOf(v int64) int {
	if v < exactLimit {
		return int(max(v, 0))
	}
	v = min(v, maxValue)
	shift := bits.Len64(uint64(v)) - subBucketBits - 1
	return shift*subBuckets + int(v>>shift)
}

// bucketBounds is the inclusive range of values that land in bucket index.
func bucketBounds(index int) (lower, upper int64) {
	if index < exactLimit {
		return int64(index), int64(index)
	}
	shift := index/subBuckets - 1
	mantissa := int64(index - shift*subBuckets)
	return mantissa << shift, (mantissa+1)<<shift - 1
}

// Record adds one latency.
func (h *Histogram) Record(d time.Duration) {
	v := int64(d)
	if h.total == 0 || v < h.min {
		h.min = v
	}
	h.max = max(h.max, v)
	h.counts[bucketOf(v)]++
	h.total++
	h.sum += v
}

// Merge adds every sample of other to h.
func (h *Histogram) Merge(other *Histogram) {
	if other.total == 0 {
		return
	}
	if h.total == 0 || other.min < h.min {
		h.min = other.min
	}
	h.max = max(h.max, other.max)
	for i, n := range other.counts {
		h.counts[i] += n
	}
	h.total += other.total
	h.sum += other.sum
}

// Count is the number of samples.
func (h *Histogram) Count() uint64 { return h.total }

// Max is the largest sample, exact.
func (h *Histogram) Max() time.Duration { return time.Duration(h.max) }

// Min is the smallest sample, exact.
func (h *Histogram) Min() time.Duration { return time.Duration(h.min) }

// Mean is the exact average of the samples.
func (h *Histogram) Mean() time.Duration {
	if h.total == 0 {
		return 0
	}
	return time.Duration(h.sum / int64(h.total))
}

// Quantile returns the latency at quantile q (0.99 for p99): the smallest
// recorded value v such that at least q of the samples are <= v, reported
// as the upper edge of its bucket (never above the true maximum), so it
// errs on the pessimistic side by less than 1%. It is 0 with no samples.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	if q >= 1 {
		return time.Duration(h.max)
	}
	rank := uint64(math.Ceil(q * float64(h.total)))
	rank = max(rank, 1)
	var seen uint64
	for i, n := range h.counts {
		seen += n
		if seen >= rank {
			_, upper := bucketBounds(i)
			return time.Duration(min(max(upper, h.min), h.max))
		}
	}
	return time.Duration(h.max)
}
