package namesrv

import (
	"strings"
	"testing"
)

// TestGuardMetricsOnTheSidePort: the side port's connection cap and the
// descriptor guards are on /metrics.
func TestGuardMetricsOnTheSidePort(t *testing.T) {
	s := startServer(t, nil)
	_, body := httpGet(t, s, "/metrics")
	for _, name := range []string{"connections_evicted_total 0", "http_connections_max 128", "tls_handshakes 0", "http_heavy_views_refused_total 0"} {
		if !strings.Contains(body, "rocketmq_namesrv_"+name) {
			t.Errorf("/metrics lacks rocketmq_namesrv_%s", name)
		}
	}
}
