package remoting

import (
	"testing"
	"time"
)

func TestIdleScanPeriod(t *testing.T) {
	cases := []struct{ timeout, want time.Duration }{
		{120 * time.Second, time.Second},
		{2 * time.Second, 500 * time.Millisecond},
		{20 * time.Millisecond, 10 * time.Millisecond},
	}
	for _, tc := range cases {
		if got := idleScanPeriod(tc.timeout); got != tc.want {
			t.Errorf("idleScanPeriod(%v) = %v, want %v", tc.timeout, got, tc.want)
		}
	}
}
