package agent

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// fakeNameServers stands in for several NameServers: it records every request
// per address and answers like a NameServer would, without sockets.
type fakeNameServers struct {
	mu       sync.Mutex
	down     map[string]bool                // dialling these fails
	requests map[string][]*remoting.Command // by address, in arrival order
	versions map[string]route.DataVersion   // last registered version per address
	answer   func(addr string, req *remoting.Command) *remoting.Command
	arrived  chan string // receives the address of each request (buffered)
}

func newFakeNameServers() *fakeNameServers {
	return &fakeNameServers{
		down:     map[string]bool{},
		requests: map[string][]*remoting.Command{},
		versions: map[string]route.DataVersion{},
		arrived:  make(chan string, 1024),
	}
}

func (f *fakeNameServers) setDown(addr string, down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down[addr] = down
}

func (f *fakeNameServers) dial(addr string) (Invoker, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down[addr] {
		return nil, errors.New("connection refused")
	}
	return &fakeClient{servers: f, addr: addr}, nil
}

// byCode returns the requests of one code that addr received.
func (f *fakeNameServers) byCode(addr string, code int32) []*remoting.Command {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*remoting.Command
	for _, req := range f.requests[addr] {
		if req.Code == code {
			out = append(out, req)
		}
	}
	return out
}

func (f *fakeNameServers) handle(addr string, req *remoting.Command) (*remoting.Command, error) {
	f.mu.Lock()
	if f.down[addr] {
		f.mu.Unlock()
		return nil, remoting.ErrConnectionClosed
	}
	f.requests[addr] = append(f.requests[addr], req)
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	switch req.Code {
	case remoting.REGISTER_BROKER:
		body, err := route.DecodeRegisterBrokerBody(req.Body)
		if err == nil {
			f.versions[addr] = body.TopicConfigSerializeWrapper.DataVersion
		}
	case remoting.QUERY_DATA_VERSION:
		sent, _ := route.DecodeDataVersion(req.Body)
		stored, known := f.versions[addr]
		resp.SetExt("changed", boolText(!known || stored != sent))
		if known {
			resp.Body = route.EncodeDataVersion(nil, stored)
		}
	}
	answer := f.answer
	f.mu.Unlock()
	if answer != nil {
		if custom := answer(addr, req); custom != nil {
			resp = custom
		}
	}
	f.arrived <- addr
	return resp, nil
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

type fakeClient struct {
	servers *fakeNameServers
	addr    string
}

func (c *fakeClient) Invoke(ctx context.Context, req *remoting.Command) (*remoting.Command, error) {
	return c.servers.handle(c.addr, req)
}

func (c *fakeClient) InvokeOneway(ctx context.Context, req *remoting.Command) error {
	req.MarkOneway()
	_, err := c.servers.handle(c.addr, req)
	return err
}

func (c *fakeClient) Close() error { return nil }

// staticTopics is a TopicSource with a fixed table.
type staticTopics struct {
	mu      sync.Mutex
	wrapper route.TopicConfigSerializeWrapper
}

func newStaticTopics(names ...string) *staticTopics {
	table := map[string]route.TopicConfig{}
	for _, name := range names {
		table[name] = route.NewTopicConfig(name)
	}
	return &staticTopics{wrapper: route.TopicConfigSerializeWrapper{
		DataVersion:      route.DataVersion{Counter: 3, Timestamp: 1700000000000},
		TopicConfigTable: table,
	}}
}

func (s *staticTopics) Wrapper() route.TopicConfigSerializeWrapper {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wrapper
}

func (s *staticTopics) DataVersion() route.DataVersion {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wrapper.DataVersion
}

func testConfig(nameServers ...string) Config {
	cfg := DefaultConfig(Identity{
		ClusterName:  "DefaultCluster",
		BrokerName:   "broker-a",
		BrokerID:     0,
		BrokerAddr:   "127.0.0.1:10911",
		HAServerAddr: "127.0.0.1:10912",
	}, nameServers)
	cfg.RegisterTimeout = 5 * time.Second
	return cfg
}

// waitFor waits until cond holds; the deadline only protects the test run
// from hanging, it asserts nothing about speed.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
