package nstest

import (
	"context"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// callTimeout bounds one call: no test waits on the network longer than this.
const callTimeout = 10 * time.Second

// Context is a context for one call, cancelled after callTimeout or when
// the test ends.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	t.Cleanup(cancel)
	return ctx
}

// NewClient returns a client on its own TCP connection to addr, closed when
// the test ends.
func NewClient(t testing.TB, addr string) *remoting.Client {
	t.Helper()
	c := remoting.NewClient(addr, remoting.ClientConfig{})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Invoke sends one request and fails the test on a transport error; the
// answer's code is the caller's to check.
func Invoke(t testing.TB, c *remoting.Client, req *remoting.Command) *remoting.Command {
	t.Helper()
	resp, err := c.Invoke(Context(t), req)
	if err != nil {
		t.Fatalf("invoke %s on %s: %v", remoting.RequestCodeName(req.Code), c.Addr(), err)
	}
	return resp
}

// MustCode fails the test unless resp has the response code want.
func MustCode(t testing.TB, resp *remoting.Command, want int32) {
	t.Helper()
	if resp.Code != want {
		t.Fatalf("code %d remark %q, want code %d", resp.Code, resp.Remark, want)
	}
}

// Register sends b's REGISTER_BROKER and fails the test unless it succeeds.
func Register(t testing.TB, c *remoting.Client, b Broker) *remoting.Command {
	t.Helper()
	resp := Invoke(t, c, b.RegisterRequest())
	MustCode(t, resp, remoting.SUCCESS)
	return resp
}

// RouteQuery asks for a topic's route as a client of the given request
// version; ext are extra header fields as key, value pairs.
func RouteQuery(t testing.TB, c *remoting.Client, topic string, version int32, ext ...string) *remoting.Command {
	t.Helper()
	if len(ext)%2 != 0 {
		t.Fatalf("route query ext %q: want key, value pairs", ext)
	}
	fields := map[string]string{"topic": topic}
	for i := 0; i+1 < len(ext); i += 2 {
		fields[ext[i]] = ext[i+1]
	}
	req := remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, fields, nil)
	req.Version = version
	return Invoke(t, c, req)
}

// DecodeRoute checks resp is a SUCCESS and decodes its TopicRouteData body.
func DecodeRoute(t testing.TB, resp *remoting.Command) *route.TopicRouteData {
	t.Helper()
	MustCode(t, resp, remoting.SUCCESS)
	data, err := route.DecodeTopicRouteData(resp.Body)
	if err != nil {
		t.Fatalf("decode route %q: %v", resp.Body, err)
	}
	return data
}
