package namesrv

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func httpGet(t *testing.T, s *testServer, path string) (int, string) {
	t.Helper()
	return nstest.HTTPGet(t, "http://"+s.ns.HTTPAddr().String()+path)
}

// TestSidePortServesOnItsOwnFreePort: httpListenPort 0 picks a port of its
// own, readable with HTTPAddr, and the address server answers this
// server's address; -1 turns the side port off.
func TestSidePortServesOnItsOwnFreePort(t *testing.T) {
	s := startServer(t, nil)
	addr := s.ns.HTTPAddr()
	if addr == nil || addr.(*net.TCPAddr).Port == 0 || addr.String() == s.addr() {
		t.Fatalf("side port %v, remoting %s", addr, s.addr())
	}
	if status, body := httpGet(t, s, "/readyz"); status != http.StatusOK || body != "ready\n" {
		t.Fatalf("readyz %d %q", status, body)
	}
	if status, body := httpGet(t, s, "/rocketmq/nsaddr"); status != http.StatusOK || body != s.addr() {
		t.Fatalf("nsaddr %d %q, want %s", status, body, s.addr())
	}
	off := startServer(t, func(cfg *config.Config) { cfg.HTTPListenPort = -1 })
	if off.ns.HTTPAddr() != nil {
		t.Fatalf("side port %v with httpListenPort -1", off.ns.HTTPAddr())
	}
}

// TestReadyFollowsTheWaitWindow: not ready while needWaitForService holds,
// ready once it is turned off (it is live), not ready once stopping.
func TestReadyFollowsTheWaitWindow(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.NeedWaitForService, cfg.WaitSecondsForService = true, 60 })
	if ready, why := s.ns.Ready(); ready || !strings.Contains(why, "needWaitForService") {
		t.Fatalf("ready %v (%q) in the wait window", ready, why)
	}
	update := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("needWaitForService=false\n"))
	nstest.MustCode(t, nstest.Invoke(t, s.client, update), remoting.SUCCESS)
	if ready, why := s.ns.Ready(); !ready {
		t.Fatalf("not ready after the window was turned off: %q", why)
	}
	s.ns.obs.stopping.Store(true)
	if ready, why := s.ns.Ready(); ready || why != "shutting down" {
		t.Fatalf("ready %v (%q) while stopping", ready, why)
	}
	s.ns.obs.stopping.Store(false) // the cleanup's Shutdown sets it again
}

// TestAdvertisedAddrOfAWildcardBind: a wildcard bind advertises a host
// address, a specific bind itself.
func TestAdvertisedAddrOfAWildcardBind(t *testing.T) {
	if got := advertisedAddr(&net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 9876}); got != "10.1.2.3:9876" {
		t.Fatalf("specific bind advertised as %s", got)
	}
	got := advertisedAddr(&net.TCPAddr{IP: net.IPv4zero, Port: 9876})
	host, port, err := net.SplitHostPort(got)
	if err != nil || port != "9876" || net.ParseIP(host) == nil || net.ParseIP(host).IsUnspecified() {
		t.Fatalf("wildcard bind advertised as %q", got)
	}
}

// TestRegistrationKindsAndEvictionAreCounted: a first registration is a
// full table, the same body again unchanged, a new DataVersion with the
// same table new_data_version; an expired broker is counted as an eviction.
func TestRegistrationKindsAndEvictionAreCounted(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.ScanNotActiveBrokerInterval = 20 })
	b := nstest.BrokerB
	b.TimeoutMillis = 200
	nstest.MustCode(t, nstest.Register(t, s.client, b), remoting.SUCCESS)
	nstest.MustCode(t, nstest.Register(t, s.client, b), remoting.SUCCESS)
	// Only the wrapper's dataVersion moves (nstest's body moves its
	// mappingDataVersion too, which is part of the table).
	newVersion := bytes.Replace(b.Body(), []byte(`"dataVersion":{"counter":1,`), []byte(`"dataVersion":{"counter":2,`), 1)
	nstest.MustCode(t, nstest.Invoke(t, s.client, b.RequestWith(newVersion)), remoting.SUCCESS)

	want := `
# HELP rocketmq_namesrv_registrations_total REGISTER_BROKER requests by kind (full_table, new_data_version, unchanged) and result (success, refused, error).
# TYPE rocketmq_namesrv_registrations_total counter
rocketmq_namesrv_registrations_total{kind="full_table",result="error"} 0
rocketmq_namesrv_registrations_total{kind="full_table",result="refused"} 0
rocketmq_namesrv_registrations_total{kind="full_table",result="success"} 1
rocketmq_namesrv_registrations_total{kind="new_data_version",result="error"} 0
rocketmq_namesrv_registrations_total{kind="new_data_version",result="refused"} 0
rocketmq_namesrv_registrations_total{kind="new_data_version",result="success"} 1
rocketmq_namesrv_registrations_total{kind="unchanged",result="error"} 0
rocketmq_namesrv_registrations_total{kind="unchanged",result="refused"} 0
rocketmq_namesrv_registrations_total{kind="unchanged",result="success"} 1
`
	if err := testutil.GatherAndCompare(s.ns.obs.metrics.Registry, strings.NewReader(want), "rocketmq_namesrv_registrations_total"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the broker evicted and counted", func() error {
		live, evicted := s.ns.routes.Counts().LiveBrokers, counterValue(t, s, "rocketmq_namesrv_evicted_brokers_total")
		scans, examined := counterValue(t, s, "rocketmq_namesrv_eviction_scans_total"), counterValue(t, s, "rocketmq_namesrv_eviction_examined_total")
		if live != 0 || evicted != 1 || scans < 1 || examined < 1 {
			return fmt.Errorf("%d live, %v evicted, %v scans, %v examined", live, evicted, scans, examined)
		}
		return nil
	})
}

// counterValue is the value of an unlabelled counter of s's metrics.
func counterValue(t *testing.T, s *testServer, name string) float64 {
	t.Helper()
	families, err := s.ns.obs.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.Metric) == 1 && f.Metric[0].Counter != nil {
			return f.Metric[0].Counter.GetValue()
		}
	}
	return -1
}

// counterSum adds up the series of counter name of s's metrics whose label
// has the given value.
func counterSum(t *testing.T, s *testServer, name, label, value string) float64 {
	t.Helper()
	families, err := s.ns.obs.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.Metric {
			for _, l := range m.Label {
				if l.GetName() == label && l.GetValue() == value {
					sum += m.Counter.GetValue()
				}
			}
		}
	}
	return sum
}

// TestReadyWaitsOutTheWarmUp: with the default readinessWarmUpMillis (one
// broker registration period) a fresh server is not ready, /readyz saying
// "warming up", while route queries are answered all along; a short
// warm-up ends by itself.
func TestReadyWaitsOutTheWarmUp(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.ReadinessWarmUpMillis = config.DefaultReadinessWarmUpMillis })
	status, body := httpGet(t, s, "/readyz")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "warming up") || !strings.Contains(body, "readinessWarmUpMillis") {
		t.Fatalf("readyz right after the start: %d %q, want 503 warming up", status, body)
	}
	nstest.MustCode(t, nstest.RouteQuery(t, s.client, "NoSuchTopic", 0), remoting.TOPIC_NOT_EXIST)

	// The warm-up starts after begun, so readiness before 200 ms from then
	// is a failure however slow the machine is.
	const warmUp = 200 * time.Millisecond
	begun := time.Now()
	short := startServer(t, func(cfg *config.Config) { cfg.ReadinessWarmUpMillis = warmUp.Milliseconds() })
	if ready, why := short.ns.Ready(); !ready && !strings.Contains(why, "warming up") {
		t.Fatalf("not ready for %q inside a 200 ms warm-up, want warming up", why)
	}
	deadline := time.Now().Add(20 * time.Second)
	for ready, why := short.ns.Ready(); !ready; ready, why = short.ns.Ready() {
		if time.Now().After(deadline) {
			t.Fatalf("still not ready after its 200 ms warm-up: %q", why)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if took := time.Since(begun); took < warmUp {
		t.Fatalf("ready %v after the start, inside its %v warm-up", took, warmUp)
	}
}
