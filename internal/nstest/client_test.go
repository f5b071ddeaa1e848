package nstest

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// fatalRecorder is a testing.TB whose Fatalf records the message and ends
// the calling goroutine, so a test can check that a helper fails.
type fatalRecorder struct {
	testing.TB
	message string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.message = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fatalMessage runs fn with a recorder and returns what it failed with ("" if
// it did not fail).
func fatalMessage(t *testing.T, fn func(tb testing.TB)) string {
	recorder := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(recorder)
	}()
	<-done
	return recorder.message
}

// startEchoServer answers REGISTER_BROKER with SUCCESS and
// GET_ROUTEINFO_BY_TOPIC with a route whose one broker name is the header
// fields it got, key=value joined by commas in key order. It records the
// route queries' versions.
func startEchoServer(t *testing.T) (addr string, versions <-chan int32) {
	seen := make(chan int32, 16)
	server := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0"})
	server.Handle(remoting.REGISTER_BROKER, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	server.Handle(remoting.GET_ROUTEINFO_BY_TOPIC, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		seen <- req.Version
		var fields []string
		for _, key := range slices.Sorted(maps.Keys(req.ExtFields)) {
			fields = append(fields, key+"="+req.ExtFields[key])
		}
		data := &route.TopicRouteData{BrokerDatas: []route.BrokerData{{BrokerName: strings.Join(fields, ",")}}}
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.Body = route.EncodeTopicRouteData(nil, data, true)
		return resp
	})
	if err := server.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	t.Cleanup(func() { _ = server.Shutdown(Context(t)) })
	return server.Addr().String(), seen
}

func TestRouteQuerySendsTopicVersionAndExtraFields(t *testing.T) {
	addr, versions := startEchoServer(t)
	c := NewClient(t, addr)
	Register(t, c, BrokerAMaster)
	data := DecodeRoute(t, RouteQuery(t, c, "TopicA", 479, "acceptStandardJsonOnly", "true"))
	if got := data.BrokerDatas[0].BrokerName; got != "acceptStandardJsonOnly=true,topic=TopicA" {
		t.Fatalf("server saw header %q", got)
	}
	if got := <-versions; got != 479 {
		t.Fatalf("server saw version %d, want 479", got)
	}
}

func TestHelpersFail(t *testing.T) {
	addr, _ := startEchoServer(t)
	c := NewClient(t, addr)
	cases := []struct {
		name string
		call func(tb testing.TB)
		want string
	}{
		{"wrong code", func(tb testing.TB) {
			MustCode(tb, &remoting.Command{Code: remoting.SYSTEM_ERROR, Remark: "boom"}, remoting.SUCCESS)
		}, `code 1 remark "boom", want code 0`},
		{"route of a failed query", func(tb testing.TB) {
			DecodeRoute(tb, &remoting.Command{Code: remoting.TOPIC_NOT_EXIST})
		}, "want code 0"},
		{"undecodable route", func(tb testing.TB) {
			DecodeRoute(tb, &remoting.Command{Code: remoting.SUCCESS, Body: []byte("not json")})
		}, "decode route"},
		{"odd ext", func(tb testing.TB) { RouteQuery(tb, c, "TopicA", 479, "lonely") }, "key, value pairs"},
		{"no server", func(tb testing.TB) {
			Invoke(tb, NewClient(tb, "127.0.0.1:1"), remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
		}, "invoke GET_BROKER_CLUSTER_INFO on 127.0.0.1:1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := fatalMessage(t, tc.call); !strings.Contains(got, tc.want) {
				t.Fatalf("failed with %q, want a message containing %q", got, tc.want)
			}
		})
	}
	if got := fatalMessage(t, func(tb testing.TB) { MustCode(tb, &remoting.Command{}, remoting.SUCCESS) }); got != "" {
		t.Fatalf("MustCode failed on a matching code: %q", got)
	}
}
