package node

import (
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"testing"
)

// TestEveryHTTPAnswerIsNosniff: every answer of the standalone
// controller's side port (cmd/controller serves HTTPHandler), of every
// endpoint, 404s and 405s included, carries X-Content-Type-Options:
// nosniff.
func TestEveryHTTPAnswerIsNosniff(t *testing.T) {
	requests := map[string][]string{
		"GET /healthz":               {"/healthz"},
		"GET /readyz":                {"/readyz"},
		"GET /metrics":               {"/metrics"},
		"GET /v1/controller":         {"/v1/controller"},
		"POST /v1/controller/leader": {"/v1/controller/leader"},
	}
	source, err := os.ReadFile("http.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`mux\.Handle(?:Func)?\("([^"]+)"`).FindAllStringSubmatch(string(source), -1) {
		if _, ok := requests[m[1]]; !ok {
			t.Errorf("route %q of http.go has no request here", m[1])
		}
	}
	g := startGroup(t, 1, nil)
	g.leader(t)
	h := g.svcs[0].Node.HTTPHandler()
	seen := map[int]bool{}
	try := func(method, path string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		seen[rec.Code] = true
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s answered %d with X-Content-Type-Options %q, want nosniff", method, path, rec.Code, got)
		}
	}
	for _, paths := range requests {
		for _, p := range paths {
			try(http.MethodGet, p)
		}
	}
	try(http.MethodGet, "/nope")
	try(http.MethodPost, "/healthz")
	for _, want := range []int{200, 404, 405} {
		if !seen[want] {
			t.Errorf("no request answered %d", want)
		}
	}
}
