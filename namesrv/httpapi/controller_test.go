package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestControllerViewAndMetricsOnlyOnceAttached(t *testing.T) {
	s := startSidePort(t)
	// The NameServer's registry, reduced to one metric of its own.
	own := prometheus.NewRegistry()
	own.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "rocketmq_namesrv_test_total", Help: "test"}))
	s.Attach(&Source{Routes: route.NewManager(route.Config{}), Metrics: &metrics.Metrics{Registry: own},
		Ready: func() (bool, string) { return true, "" }})
	if status, body := get(t, s, "/v1/controller"); status != http.StatusNotFound || !strings.Contains(body, "enableControllerInNamesrv=false") {
		t.Fatalf("/v1/controller without a controller: %d %q", status, body)
	}
	if _, body := get(t, s, "/metrics"); strings.Contains(body, "rocketmq_controller_") {
		t.Fatal("controller metrics without a controller")
	}
	reg := prometheus.NewRegistry()
	gauge := prometheus.NewGauge(prometheus.GaugeOpts{Name: "rocketmq_controller_role", Help: "role"})
	gauge.Set(1)
	reg.MustRegister(gauge)
	s.AttachController(Controller{Status: func() any { return map[string]string{"role": "Leader"} }, Metrics: reg})
	if status, body := get(t, s, "/v1/controller"); status != http.StatusOK || !strings.Contains(body, `"role": "Leader"`) && !strings.Contains(body, `"role":"Leader"`) {
		t.Fatalf("/v1/controller: %d %q", status, body)
	}
	if _, body := get(t, s, "/metrics"); !strings.Contains(body, "\nrocketmq_controller_role 1\n") || !strings.Contains(body, "\nrocketmq_namesrv_test_total 0\n") {
		t.Fatalf("/metrics lacks the controller's or the NameServer's metrics:\n%.2000s", body)
	}
}

// An embedded controller that is down is named in /readyz's body, which
// stays 200: routes are still served, and readiness gates their Service.
func TestReadyzNamesADownControllerAndStaysReadyForRoutes(t *testing.T) {
	s := startSidePort(t)
	s.Attach(&Source{Routes: route.NewManager(route.Config{}), Metrics: &metrics.Metrics{Registry: prometheus.NewRegistry()},
		Ready: func() (bool, string) { return true, "" }})
	var down atomic.Pointer[error]
	s.AttachController(Controller{Status: func() any { return nil }, Down: func() error {
		if err := down.Load(); err != nil {
			return *err
		}
		return nil
	}})
	if status, body := get(t, s, "/readyz"); status != http.StatusOK || body != "ready\n" {
		t.Fatalf("/readyz with the controller up: %d %q", status, body)
	}
	err := errors.New("controller store /x/raft.db: raft log index 7: configuration: bad")
	down.Store(&err)
	if status, body := get(t, s, "/readyz"); status != http.StatusOK ||
		body != "ready\ncontroller down: controller store /x/raft.db: raft log index 7: configuration: bad\n" {
		t.Fatalf("/readyz with the controller down: %d %q", status, body)
	}
}
