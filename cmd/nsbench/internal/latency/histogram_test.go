package latency

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// exactQuantile is the nearest-rank percentile of sorted samples, the
// definition Quantile approximates.
func exactQuantile(sorted []time.Duration, q float64) time.Duration {
	rank := int(math.Ceil(q * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

func TestQuantileWithinOnePercentOfExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	distributions := map[string]func() time.Duration{
		"uniform 0-2ms":     func() time.Duration { return time.Duration(rng.Int64N(int64(2 * time.Millisecond))) },
		"lognormal ~50us":   func() time.Duration { return time.Duration(math.Exp(rng.NormFloat64()*1.2 + math.Log(50e3))) },
		"tiny values":       func() time.Duration { return time.Duration(rng.Int64N(300)) },
		"bimodal with tail": func() time.Duration { return bimodal(rng) },
	}
	for name, draw := range distributions {
		t.Run(name, func(t *testing.T) {
			var h Histogram
			samples := make([]time.Duration, 20000)
			for i := range samples {
				samples[i] = draw()
				h.Record(samples[i])
			}
			slices.Sort(samples)
			for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999, 1} {
				want := exactQuantile(samples, q)
				got := h.Quantile(q)
				if got < want || float64(got-want) > float64(want)/128+1 {
					t.Errorf("q=%v: got %v, exact %v (must be >= exact and within 1/128)", q, got, want)
				}
			}
			if h.Max() != samples[len(samples)-1] || h.Min() != samples[0] {
				t.Errorf("min/max %v/%v, want %v/%v", h.Min(), h.Max(), samples[0], samples[len(samples)-1])
			}
		})
	}
}

func bimodal(rng *rand.Rand) time.Duration {
	if rng.IntN(100) == 0 {
		return time.Duration(rng.Int64N(int64(300*time.Millisecond))) + 10*time.Millisecond
	}
	return time.Duration(rng.Int64N(int64(100*time.Microsecond))) + 20*time.Microsecond
}

func TestMergeEqualsRecordingEverything(t *testing.T) {
	var a, b, all Histogram
	for i := range 5000 {
		d := time.Duration(i*i) * time.Nanosecond
		if i%3 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
		all.Record(d)
	}
	var merged Histogram
	merged.Merge(&a)
	merged.Merge(&b)
	merged.Merge(&Histogram{}) // an empty one changes nothing
	if merged != all {
		t.Fatalf("merged histogram differs: count %d/%d mean %v/%v min %v/%v",
			merged.Count(), all.Count(), merged.Mean(), all.Mean(), merged.Min(), all.Min())
	}
}

func TestBucketsCoverEveryValueOnce(t *testing.T) {
	// Walking the buckets in order, each starts right after the previous one
	// ends, and every value maps back into its own bucket.
	next := int64(0)
	for i := range numBuckets {
		lower, upper := bucketBounds(i)
		if lower != next || upper < lower {
			t.Fatalf("bucket %d is [%d,%d], want to start at %d", i, lower, upper, next)
		}
		for _, v := range []int64{lower, upper, (lower + upper) / 2} {
			if got := bucketOf(v); got != i {
				t.Fatalf("value %d maps to bucket %d, want %d", v, got, i)
			}
		}
		next = upper + 1
	}
	if next-1 != maxValue {
		t.Fatalf("last bucket ends at %d, want %d", next-1, maxValue)
	}
}

func TestEmptyAndClamped(t *testing.T) {
	var h Histogram
	if h.Quantile(0.99) != 0 || h.Mean() != 0 || h.Count() != 0 {
		t.Fatal("empty histogram must report zeros")
	}
	h.Record(time.Hour) // beyond the range: clamped into the last bucket, max exact
	h.Record(-time.Second)
	if h.Max() != time.Hour || h.Quantile(1) != time.Hour || h.Count() != 2 {
		t.Fatalf("max %v q1 %v count %d", h.Max(), h.Quantile(1), h.Count())
	}
}
