package httpapi

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// nosniffRequests are requests to every pattern of routes() (the test
// checks that server.go has no other), answered 200 and otherwise.
var nosniffRequests = map[string][]string{
	"GET /healthz":                          {"GET /healthz"},
	"GET /readyz":                           {"GET /readyz"},
	"GET /metrics":                          {"GET /metrics"},
	"GET /v1/clusters":                      {"GET /v1/clusters"},
	"GET /v1/brokers":                       {"GET /v1/brokers", "GET /v1/brokers?limit=0", "GET /v1/brokers?sort=nope"},
	"GET /v1/brokers/{addr}":                {"GET /v1/brokers/10.0.0.1:10911"},
	"GET /v1/topics":                        {"GET /v1/topics", "GET /v1/topics?system=maybe"},
	"GET /v1/topics/{topic}/route":          {"GET /v1/topics/T-1/route", "GET /v1/topics/T-1/route?format=java", "GET /v1/topics/%3Cscript%3E/route"},
	"GET /v1/kv":                            {"GET /v1/kv"},
	"GET /v1/config":                        {"GET /v1/config"},
	"GET /v1/whoami":                        {"GET /v1/whoami"},
	"POST /v1/brokers/{brokerName}/drain":   {"POST /v1/brokers/b/drain"},
	"POST /v1/brokers/{brokerName}/undrain": {"POST /v1/brokers/b/undrain"},
	"/v1/brokers/{brokerName}/drain":        {"GET /v1/brokers/b/drain"},
	"/v1/brokers/{brokerName}/undrain":      {"DELETE /v1/brokers/b/undrain"},
	"GET /v1/status":                        {"GET /v1/status"},
	"GET /v1/debug":                         {"GET /v1/debug"},
	"GET /v1/stats":                         {"GET /v1/stats"},
	"GET /v1/peers":                         {"GET /v1/peers"},
	"GET /v1/controller":                    {"GET /v1/controller"},
	"POST /v1/controller/leader":            {"POST /v1/controller/leader"},
	"/v1/controller/leader":                 {"GET /v1/controller/leader"},
	"POST /v1/controller/peers":             {"POST /v1/controller/peers"},
	"/v1/controller/peers":                  {"GET /v1/controller/peers"},
	"DELETE /v1/controller/peers/{id}":      {"DELETE /v1/controller/peers/n1"},
	"/v1/controller/peers/{id}":             {"POST /v1/controller/peers/n1"},
	"/v1/":                                  {"GET /v1/nope", "PUT /v1/status"},
	"GET /rocketmq/{subgroup}":              {"GET /rocketmq/nsaddr"},
	"GET /{$}":                              {"GET /"},
	"GET /assets/":                          {"GET /assets/app.js", "GET /assets/style.css", "GET /assets/nope.js"},
	"(no pattern)":                          {"GET /nope", "POST /", "GET /assets"},
}

// TestEveryAnswerIsNosniff: every answer of the side port, of every
// endpoint, before and after Attach, with ACL off and on (401s), errors,
// 404s, 405s and the 503 past MaxConcurrent included, carries
// X-Content-Type-Options: nosniff.
func TestEveryAnswerIsNosniff(t *testing.T) {
	source, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`mux\.Handle(?:Func)?\("([^"]+)"`).FindAllStringSubmatch(string(source), -1) {
		if _, ok := nosniffRequests[m[1]]; !ok {
			t.Errorf("route %q of server.go has no request in nosniffRequests", m[1])
		}
	}

	check := func(t *testing.T, s *Server, what string) map[int]bool {
		t.Helper()
		statuses := map[int]bool{}
		for _, reqs := range nosniffRequests {
			for _, r := range reqs {
				method, path, _ := strings.Cut(r, " ")
				req, err := http.NewRequest(method, "http://"+s.Addr().String()+path, nil)
				if err != nil {
					t.Fatal(err)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatalf("%s %s: %v", what, r, err)
				}
				_ = resp.Body.Close()
				statuses[resp.StatusCode] = true
				if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
					t.Errorf("%s: %s answered %d with X-Content-Type-Options %q, want nosniff", what, r, resp.StatusCode, got)
				}
			}
		}
		return statuses
	}

	s := startSidePort(t)
	check(t, s, "before Attach")
	attach := func(s *Server, checker *acl.Checker) {
		routes := route.NewManager(route.Config{})
		sources := metrics.Sources{Counts: routes.Counts}
		stats := metrics.New(sources, nil, time.Now()).StartStats(sources, time.Hour)
		t.Cleanup(stats.Stop)
		s.Attach(&Source{Routes: routes, Metrics: &metrics.Metrics{Registry: prometheus.NewRegistry()}, Stats: stats, Ready: func() (bool, string) { return true, "" },
			KV: func() map[string]map[string]string { return nil }, Config: func() map[string]string { return map[string]string{} },
			NameServers: func() string { return "127.0.0.1:9876" }, RemoteOf: func(route.ConnID) string { return "" },
			OrderTopicConf: func(string) string { return "" }, Started: time.Now(), Addr: "127.0.0.1:9876",
			ACL: checker, Drain: func(string) int { return 0 }, Undrain: func(string) int { return 0 }})
	}
	attach(s, nil)
	got := check(t, s, "attached")
	for _, want := range []int{200, 400, 403, 404, 405} {
		if !got[want] {
			t.Errorf("attached: no request answered %d, so its header is untested", want)
		}
	}

	guarded := startSidePort(t)
	attach(guarded, testChecker(t, true))
	if got := check(t, guarded, "under ACL"); !got[http.StatusUnauthorized] {
		t.Error("under ACL: no request answered 401")
	}

	// Past MaxConcurrent: the 503 the limiter writes.
	for range cap(s.slots) {
		s.slots <- struct{}{}
	}
	resp, err := http.Get("http://" + s.Addr().String() + "/v1/status")
	for range cap(s.slots) {
		<-s.slots
	}
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("with every slot taken: %d with X-Content-Type-Options %q, want 503 nosniff", resp.StatusCode, resp.Header.Get("X-Content-Type-Options"))
	}
}
