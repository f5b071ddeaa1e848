package nstest

import (
	"context"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// The helpers below return errors instead of failing a test, for the
// goroutines and polls of the end-to-end and fault suites, where a refused
// connection is an observation (the server is down), not a test failure.

// Call sends one request over a fresh connection and returns the answer,
// within timeout (the dial within a second, or timeout when shorter).
func Call(addr string, code int32, ext map[string]string, body []byte, timeout time.Duration) (*remoting.Command, error) {
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: min(time.Second, timeout), RequestTimeout: timeout})
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return client.Invoke(ctx, remoting.NewRequest(code, ext, body))
}

// RouteOf asks addr for a topic's route (GET_ROUTEINFO_BY_TOPIC); code is
// the answer's, -1 when there was none, and the route is nil unless it is 0.
func RouteOf(addr, topic string, timeout time.Duration) (*route.TopicRouteData, int32, error) {
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: min(time.Second, timeout), RequestTimeout: timeout})
	defer client.Close()
	return RouteFrom(client, topic, timeout)
}

// RouteFrom is RouteOf on a connection the caller keeps (a poller that must
// not pay a dial per read).
func RouteFrom(client *remoting.Client, topic string, timeout time.Duration) (*route.TopicRouteData, int32, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := client.Invoke(ctx, remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic}, nil))
	if err != nil {
		return nil, -1, err
	}
	if resp.Code != remoting.SUCCESS {
		return nil, resp.Code, nil
	}
	data, err := route.DecodeTopicRouteData(resp.Body)
	return data, resp.Code, err
}
