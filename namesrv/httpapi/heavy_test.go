package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// TestHeavyViewsRunTwoAtATime: with the heavy slots taken, /v1/debug,
// /v1/clusters, /v1/kv and a route in Java's encoding are answered 503
// with Retry-After at once, while the probes, the status and the paged
// lists are served.
func TestHeavyViewsRunTwoAtATime(t *testing.T) {
	s := startSidePort(t)
	attachedSource(t, s, nil, &drains{})
	for range DefaultHeavyViews {
		s.heavyViews.slots <- struct{}{}
	}
	base := "http://" + s.Addr().String()
	for _, path := range []string{"/v1/debug", "/v1/clusters", "/v1/kv", "/v1/topics/T/route?format=java"} {
		a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: base + path})
		if a.Status != http.StatusServiceUnavailable || !strings.Contains(a.Body, "httpHeavyViewConcurrency") || a.Header.Get("Retry-After") == "" {
			t.Errorf("%s with the heavy slots taken: %d %q %v", path, a.Status, a.Body, a.Header)
		}
	}
	for _, path := range []string{"/healthz", "/readyz", "/v1/status", "/v1/topics", "/v1/brokers"} {
		if status, body := get(t, s, path); status != http.StatusOK {
			t.Errorf("%s behind the heavy views: %d %q", path, status, body)
		}
	}
	for range DefaultHeavyViews {
		<-s.heavyViews.slots
	}
	if status, body := get(t, s, "/v1/debug"); status != http.StatusOK || !strings.HasPrefix(body, `{"brokers":[],"clusters":[],"counts":`) {
		t.Fatalf("/v1/debug once free: %d %q", status, body)
	}
	if s.HeavyViewsRefused() != 4 || s.HeavyViewMemory() != 0 {
		t.Fatalf("refused %d, memory held %d; want 4 and 0", s.HeavyViewsRefused(), s.HeavyViewMemory())
	}
}

// TestHeavyMemoryBudget: a view that does not fit beside the ones in
// flight is refused; alone, even one larger than the budget is served.
func TestHeavyMemoryBudget(t *testing.T) {
	g := newHeavyGate(2, 100)
	if !g.reserve(150) {
		t.Fatal("a view larger than the budget refused while alone")
	}
	if g.reserve(1) {
		t.Fatal("a second view admitted past the budget")
	}
	g.held.Add(-150)
	if !g.reserve(60) || g.reserve(50) || !g.reserve(40) {
		t.Fatalf("budget of 100: held %d", g.held.Load())
	}
}

// TestKVPages: /v1/kv answers a page of the entries sorted by namespace
// and key, with their total, and one namespace with ?namespace=.
func TestKVPages(t *testing.T) {
	s := startSidePort(t)
	attachedSource(t, s, nil, &drains{})
	src := *s.source.Load()
	src.KV = func() map[string]map[string]string {
		return map[string]map[string]string{"a": {"k1": "v1", "k2": "v2"}, "b": {"k1": "w1"}}
	}
	s.source.Store(&src)
	var page struct {
		Namespaces map[string]map[string]string `json:"namespaces"`
		Total      int                          `json:"total"`
	}
	for path, want := range map[string]string{
		"/v1/kv?limit=2":             `{"a":{"k1":"v1","k2":"v2"}} 3`,
		"/v1/kv?offset=1&limit=2":    `{"a":{"k2":"v2"},"b":{"k1":"w1"}} 3`,
		"/v1/kv?namespace=b":         `{"b":{"k1":"w1"}} 1`,
		"/v1/kv?offset=9":            `{} 3`,
		"/v1/kv?namespace=a&limit=1": `{"a":{"k1":"v1"}} 2`,
	} {
		status, body := get(t, s, path)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", path, status, body)
		}
		page.Namespaces, page.Total = nil, 0
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(page.Namespaces)
		if string(got)+" "+strconv.Itoa(page.Total) != want {
			t.Errorf("%s: %s %d, want %s", path, got, page.Total, want)
		}
	}
	if status, _ := get(t, s, "/v1/kv?limit=0"); status != http.StatusBadRequest {
		t.Fatalf("limit=0: %d", status)
	}
}
