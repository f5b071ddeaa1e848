package namesrv

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
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

// testServer is one in-process NameServer on a loopback port, with a client
// connected to it and a hook that keeps every log entry.
type testServer struct {
	ns     *NameServer
	logger *logrus.Logger
	hook   *logtest.Hook
	client *remoting.Client
}

// startServer builds a NameServer on 127.0.0.1 port 0 with its files under
// t.TempDir(); configure (may be nil) changes the defaults first. The server
// and the client are stopped when the test ends.
func startServer(t *testing.T, configure func(cfg *config.Config)) *testServer {
	t.Helper()
	cfg := testConfig(t)
	if configure != nil {
		configure(cfg)
	}
	logger, hook := logtest.NewNullLogger()
	log := logrus.NewEntry(logger)
	ns, err := New(config.NewSettings(cfg, log.WithField("component", "config")), log)
	if err != nil {
		t.Fatalf("start name server: %v", err)
	}
	t.Cleanup(func() {
		if err := ns.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return &testServer{ns: ns, logger: logger, hook: hook, client: nstest.NewClient(t, ns.Addr().String())}
}

// testConfig is the Java defaults on 127.0.0.1 port 0, with the KV and
// settings files under t.TempDir().
func testConfig(t *testing.T) *config.Config {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.BindAddress, cfg.ListenPort = "127.0.0.1", 0
	cfg.HTTPListenPort = 0 // never the default 9880: tests run in parallel
	cfg.ReadinessWarmUpMillis = 0
	cfg.KvConfigPath = filepath.Join(dir, "kvConfig.json")
	cfg.ConfigStorePath = filepath.Join(dir, "namesrv.properties")
	return cfg
}

func (s *testServer) addr() string { return s.ns.Addr().String() }

// call is nstest.Invoke on the server's own client for a request built from its parts.
func (s *testServer) call(t *testing.T, code int32, ext map[string]string, body []byte) *remoting.Command {
	t.Helper()
	return nstest.Invoke(t, s.client, remoting.NewRequest(code, ext, body))
}

// mustRefuse checks a SYSTEM_ERROR answer whose remark contains want.
func mustRefuse(t *testing.T, resp *remoting.Command, want string) {
	t.Helper()
	if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, want) {
		t.Fatalf("code %d remark %q, want code 1 with a remark containing %q", resp.Code, resp.Remark, want)
	}
}

// mustCompressedBody is b's binary RegisterBrokerBody (protocol.md 3.8); it
// fails the test when the body cannot be built.
func mustCompressedBody(t *testing.T, b nstest.Broker) []byte {
	t.Helper()
	body, err := b.CompressedBody()
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// javaDefaultBroker is the broker RequestProcessorTest pre-loads (protocol.md
// 9.6): id 1234 with acting master given as false is the prime slave of its
// group, so its topics are routed.
var javaDefaultBroker = nstest.Broker{Cluster: "default-cluster", Name: "default-broker", Addr: "127.0.0.1:10911",
	HAAddr: "127.0.0.1:10912", ID: 1234, Topics: map[string]int32{"unit-test0": 8, "unit-test1": 8},
	Version: route.DataVersion{Counter: 10, Timestamp: 100}}

// routeBrokerNames lists the broker names of a route's broker datas and queue datas.
func routeBrokerNames(data *route.TopicRouteData) (brokers, queues []string) {
	for _, b := range data.BrokerDatas {
		brokers = append(brokers, b.BrokerName)
	}
	for _, q := range data.QueueDatas {
		queues = append(queues, q.BrokerName)
	}
	return brokers, queues
}

// topicExists asks the route manager directly, without the wire.
func (s *testServer) topicExists(topic string) bool {
	_, ok := s.ns.routes.PickupTopicRouteData(topic)
	return ok
}

// errStillThere is what an eventually condition answers while the state it
// waits to disappear is still present.
var errStillThere = errors.New("still there")

// eventually polls cond until it returns nil or the deadline passes: for
// work the server applies asynchronously (the unregistration worker).
func eventually(t *testing.T, what string, cond func() error) {
	t.Helper()
	// 30 s: a niced run beside builds has taken more than 10 s to decode
	// one large registration under -race.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not true after 30 s: %v", what, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// logged reports whether the hook saw an entry with that message at level.
func logged(hook *logtest.Hook, level logrus.Level, message string) bool {
	for _, e := range hook.AllEntries() {
		if e.Level == level && e.Message == message {
			return true
		}
	}
	return false
}

// countLogged counts the entries with that message.
func countLogged(hook *logtest.Hook, message string) int {
	n := 0
	for _, e := range hook.AllEntries() {
		if e.Message == message {
			n++
		}
	}
	return n
}

// rawConn is a bare TCP connection speaking frames, for what the client
// hides: one-way requests that must get no answer, a connection the server
// closes.
type rawConn struct {
	t    *testing.T
	conn net.Conn
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &rawConn{t: t, conn: conn}
}

func (r *rawConn) send(cmd *remoting.Command) {
	r.t.Helper()
	frame, err := remoting.Encode(cmd)
	if err != nil {
		r.t.Fatalf("encode: %v", err)
	}
	if _, err := r.conn.Write(frame); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// read returns the next frame from the server, or the read error (io.EOF
// once the server closed the connection).
func (r *rawConn) read() (*remoting.Command, error) {
	_ = r.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var length [4]byte
	if _, err := io.ReadFull(r.conn, length[:]); err != nil {
		return nil, err
	}
	frame := make([]byte, binary.BigEndian.Uint32(length[:]))
	if _, err := io.ReadFull(r.conn, frame); err != nil {
		return nil, err
	}
	cmd, err := remoting.DecodeFrame(frame)
	if err != nil {
		return nil, fmt.Errorf("decode frame: %w", err)
	}
	return cmd, nil
}

// closedByPeer says whether a read error means the server closed the
// connection (end of stream or reset), as opposed to the read deadline.
func closedByPeer(err error) bool {
	var opErr *net.OpError
	return errors.Is(err, io.EOF) || errors.As(err, &opErr) && !opErr.Timeout()
}

// invoke sends a request with the given opaque and reads one answer.
func (r *rawConn) invoke(cmd *remoting.Command, opaque int32) *remoting.Command {
	r.t.Helper()
	cmd.Opaque = opaque
	r.send(cmd)
	resp, err := r.read()
	if err != nil {
		r.t.Fatalf("read answer to %s: %v", remoting.RequestCodeName(cmd.Code), err)
	}
	return resp
}
