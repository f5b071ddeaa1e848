package namesrv

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

func TestGracefulWaitOfIsBounded(t *testing.T) {
	for _, tc := range []struct {
		enabled bool
		seconds int
		want    time.Duration
	}{
		{false, 30, 0},
		{true, 30, 30 * time.Second},
		{true, -1, 0},
		{true, 2147483647, MaxShutdownWait},
	} {
		cfg := config.Default()
		cfg.EnableShutdownGracefully, cfg.ShutdownWaitTimeSeconds = tc.enabled, tc.seconds
		if got := gracefulWaitOf(cfg, quietLog()); got != tc.want {
			t.Errorf("enabled=%v seconds=%d: %v, want %v", tc.enabled, tc.seconds, got, tc.want)
		}
	}
}
