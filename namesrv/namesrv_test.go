package namesrv

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestNewListensAndLogsBoot(t *testing.T) {
	s := startServer(t, nil)
	addr, ok := s.ns.Addr().(*net.TCPAddr)
	if !ok || addr.Port == 0 || !addr.IP.IsLoopback() {
		t.Fatalf("Addr %v, want a loopback address with the real port", s.ns.Addr())
	}
	var boot *logrus.Entry
	for _, e := range s.hook.AllEntries() {
		if e.Message == "The Name Server boot success" {
			boot = e
		}
	}
	if boot == nil || boot.Data["address"] != addr.String() {
		t.Fatalf("boot log entry %v, want one with address %s", boot, addr)
	}
}

// TestNewRefuses: New fails, with the cause in the error, when the KV file
// is not JSON (as Java) or the port is taken.
func TestNewRefuses(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	cases := []struct {
		name      string
		configure func(t *testing.T, cfg *config.Config)
		want      string
	}{
		{"kv file not JSON", func(t *testing.T, cfg *config.Config) {
			if err := os.WriteFile(cfg.KvConfigPath, []byte("not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "load kv config"},
		{"port taken", func(_ *testing.T, cfg *config.Config) {
			cfg.ListenPort = taken.Addr().(*net.TCPAddr).Port
		}, "listen on"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			tc.configure(t, cfg)
			logger, _ := logtest.NewNullLogger()
			log := logrus.NewEntry(logger)
			ns, err := New(config.NewSettings(cfg, log), log)
			if err == nil {
				_ = ns.Shutdown(context.Background())
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to mention %q", err, tc.want)
			}
		})
	}
}

// TestShutdownAnswersRequestInFlight: a slow request being handled when
// Shutdown is called is answered before Shutdown returns.
func TestShutdownAnswersRequestInFlight(t *testing.T) {
	s := startServer(t, nil)
	const slowCode = 9999
	entered, release := make(chan struct{}), make(chan struct{})
	s.ns.server.Handle(slowCode, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		close(entered)
		<-release
		return success(req)
	}, remoting.Slow())
	probe := nstest.NewClient(t, s.addr())
	nstest.MustCode(t, nstest.Invoke(t, probe, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil)), remoting.SUCCESS)

	answered := make(chan error, 1)
	go func() {
		resp, err := s.client.Invoke(context.Background(), remoting.NewRequest(slowCode, nil, nil))
		if err == nil && resp.Code != remoting.SUCCESS {
			err = fmt.Errorf("code %d remark %q", resp.Code, resp.Remark)
		}
		answered <- err
	}()
	waitFor(t, entered, "the slow handler to start")

	stopped := make(chan error, 1)
	go func() { stopped <- s.ns.Shutdown(context.Background()) }()
	// Shutdown has begun once the worker pool refuses new work.
	eventually(t, "the server refusing new slow requests", func() error {
		resp := nstest.Invoke(t, probe, remoting.NewRequest(remoting.DELETE_KV_CONFIG, kvHeader("ns", "k"), nil))
		if resp.Code != remoting.SYSTEM_BUSY {
			return fmt.Errorf("code %d", resp.Code)
		}
		return nil
	})
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) while a request was in flight", err)
	default:
	}
	close(release)
	if err := waitForValue(t, stopped, "Shutdown to return"); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := waitForValue(t, answered, "the in-flight answer"); err != nil {
		t.Fatalf("in-flight request: %v", err)
	}
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("waited 10 s for %s", what)
	}
}

func waitForValue[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("waited 10 s for %s", what)
		var zero T
		return zero
	}
}

func TestRouteConfig(t *testing.T) {
	cfg := config.Default()
	cfg.SupportActingMaster, cfg.DeleteTopicWithBrokerRegistration, cfg.NotifyMinBrokerIdChanged = true, true, true
	cfg.BrokerChannelExpiredTime, cfg.ControllerMaxEpochJump = 7000, 50
	got := routeConfig(cfg)
	want := route.Config{SupportActingMaster: true, DeleteTopicWithBrokerRegistration: true,
		NotifyMinBrokerIdChanged: true, DefaultHeartbeatTimeout: 7 * time.Second, ControllerFencing: true, MaxElectionEpochJump: 50}
	if got != want {
		t.Fatalf("route config %+v, want %+v", got, want)
	}
	if routeConfig(config.Default()).SupportActingMaster {
		t.Fatal("supportActingMaster on by default")
	}
}
