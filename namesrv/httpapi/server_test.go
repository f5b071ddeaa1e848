package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func startSidePort(t *testing.T) *Server {
	t.Helper()
	s, err := New("127.0.0.1:0", testlog.Discard(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shutdownAtCleanup(t, s)
	return s
}

// shutdownAtCleanup stops s when the test ends.
func shutdownAtCleanup(t *testing.T, s *Server) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
}

func get(t *testing.T, s *Server, path string) (int, string) {
	t.Helper()
	return nstest.HTTPGet(t, "http://"+s.Addr().String()+path)
}

// TestBeforeAttachOnlyHealthAnswers: while the NameServer loads its KV
// store, /healthz is 200, /readyz 503 with the reason, the JSON view 503
// JSON, and the dashboard page is served.
func TestBeforeAttachOnlyHealthAnswers(t *testing.T) {
	s := startSidePort(t)
	if status, body := get(t, s, "/healthz"); status != http.StatusOK || body != "ok\n" {
		t.Fatalf("healthz %d %q", status, body)
	}
	if status, body := get(t, s, "/readyz"); status != http.StatusServiceUnavailable || !strings.Contains(body, "loading the KV config store") {
		t.Fatalf("readyz %d %q", status, body)
	}
	for _, path := range []string{"/v1/status", "/metrics", "/rocketmq/nsaddr"} {
		if status, body := get(t, s, path); status != http.StatusServiceUnavailable || !strings.Contains(body, `"error"`) {
			t.Fatalf("%s before attach: %d %q", path, status, body)
		}
	}
	if status, body := get(t, s, "/"); status != http.StatusOK || !strings.Contains(body, "<html") {
		t.Fatalf("dashboard %d %.80q", status, body)
	}
	if status, _ := get(t, s, "/assets/app.js"); status != http.StatusOK {
		t.Fatalf("dashboard script %d", status)
	}
}

// TestConcurrentRequestsBeyondTheBoundAre503: with every slot taken, a
// request is answered 503 at once, not queued.
func TestConcurrentRequestsBeyondTheBoundAre503(t *testing.T) {
	s := startSidePort(t)
	for range MaxConcurrent {
		s.slots <- struct{}{}
	}
	status, body := get(t, s, "/")
	probe, probeBody := get(t, s, "/healthz")
	for range MaxConcurrent {
		<-s.slots
	}
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "too many concurrent requests") {
		t.Fatalf("with every slot taken: %d %q", status, body)
	}
	if probe != http.StatusOK || probeBody != "ok\n" {
		t.Fatalf("/healthz waited behind the other endpoints' slots: %d %q", probe, probeBody)
	}
	if status, _ := get(t, s, "/"); status != http.StatusOK {
		t.Fatalf("after the slots freed: %d", status)
	}
}
