package baseline

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

var testSpec = load.LayoutSpec{Clusters: 2, BrokersPerCluster: 3, TopicsPerCluster: 20, QueueNums: 8}

func startBaseline(t *testing.T) *Server {
	t.Helper()
	srv, err := Start("127.0.0.1:0", testSpec, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown() })
	return srv
}

func dial(t *testing.T, addr string, n int) []load.Invoker {
	t.Helper()
	clients, err := load.Dial(context.Background(), addr, n, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { load.CloseAll(clients) })
	return clients
}

func invoke(t *testing.T, c load.Invoker, req *remoting.Command) *remoting.Command {
	t.Helper()
	resp, err := c.Invoke(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestBaselineAnswersLikeTheNameServerWithoutState(t *testing.T) {
	srv := startBaseline(t)
	c := dial(t, srv.Addr(), 1)[0]
	l := load.NewLayout(testSpec)
	for _, i := range []int{0, 25, l.TopicCount() - 1} {
		topic, cluster := l.Topic(i)
		if kind := l.ExpectRoute(cluster)(invoke(t, c, load.RouteRequest(topic))); kind != "" {
			t.Fatalf("route of %s: %s", topic, kind)
		}
	}
	if resp := invoke(t, c, load.RouteRequest("unknown")); resp.Code != remoting.TOPIC_NOT_EXIST {
		t.Fatalf("unknown topic answered %d", resp.Code)
	}
	regs := load.NewRegistrations(l)
	if resp := invoke(t, c, regs.Request(l.Brokers()[0], load.SecondVersion)); resp.Code != remoting.SUCCESS || resp.ExtFields == nil {
		t.Fatalf("register answered %+v", resp)
	}
	if resp := invoke(t, c, load.HeartbeatRequest(l.Brokers()[1])); resp.Code != remoting.SUCCESS {
		t.Fatalf("heartbeat answered %+v", resp)
	}
	resp := invoke(t, c, load.QueryDataVersionRequest(l.Brokers()[1], load.FirstVersion))
	if dv, err := route.DecodeDataVersion(resp.Body); err != nil || dv != load.BodyDataVersion(load.FirstVersion) || resp.ExtFields["changed"] != "false" {
		t.Fatalf("query data version answered %+v (%v)", resp, err)
	}
}

// The baseline's answers must be as large as the real server's for the
// same data, or the comparison would favour one side.
func TestBaselineAnswerSizesMatchTheRealNameServer(t *testing.T) {
	cfg := config.Default()
	cfg.BindAddress, cfg.ListenPort, cfg.HTTPListenPort = "127.0.0.1", 0, -1
	dir := t.TempDir()
	cfg.KvConfigPath, cfg.ConfigStorePath = filepath.Join(dir, "kv.json"), filepath.Join(dir, "namesrv.properties")
	cfg.NeedWaitForService = false
	ns, err := namesrv.New(config.NewSettings(cfg, testlog.Warnings()), testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ns.Shutdown(ctx)
	})
	base := startBaseline(t)
	l := load.NewLayout(testSpec)
	regs := load.NewRegistrations(l)
	real := dial(t, ns.Addr().String(), len(l.Brokers())+1)
	if err := load.Seed(context.Background(), regs, real[1:], load.FirstVersion); err != nil {
		t.Fatal(err)
	}
	fake := dial(t, base.Addr(), 1)[0]
	broker := l.Brokers()[4]
	requests := map[string]func() *remoting.Command{
		"route":              func() *remoting.Command { topic, _ := l.Topic(30); return load.RouteRequest(topic) },
		"unknown topic":      func() *remoting.Command { return load.RouteRequest("no-such-topic") },
		"heartbeat":          func() *remoting.Command { return load.HeartbeatRequest(broker) },
		"query data version": func() *remoting.Command { return load.QueryDataVersionRequest(broker, load.FirstVersion) },
	}
	for name, request := range requests {
		want, got := invoke(t, real[0], request()), invoke(t, fake, request())
		wantFrame, _ := remoting.Encode(want)
		gotFrame, _ := remoting.Encode(got)
		if want.Code != got.Code || len(want.Body) != len(got.Body) || len(wantFrame) != len(gotFrame) {
			t.Errorf("%s: real code %d body %d frame %d; baseline code %d body %d frame %d",
				name, want.Code, len(want.Body), len(wantFrame), got.Code, len(got.Body), len(gotFrame))
		}
	}
}
