package warmstart

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

var testNow = time.UnixMilli(1_700_000_000_000)

// fakePeer answers Code from routes' state in pages of about pageBytes,
// to any request (the signature check is the NameServer's, tested there).
type fakePeer struct {
	addr   string
	routes *route.Manager
	pages  atomic.Int64 // topic pages answered
	asked  atomic.Int64 // requests, refused or not
	refuse atomic.Bool
}

func startFakePeer(t *testing.T, routes *route.Manager, pageBytes int) *fakePeer {
	t.Helper()
	p := &fakePeer{routes: routes}
	cfg := remoting.DefaultServerConfig()
	cfg.Addr = "127.0.0.1:0"
	srv := remoting.NewServer(cfg)
	srv.Handle(Code, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		p.asked.Add(1)
		if p.refuse.Load() {
			return remoting.NewResponse(req, remoting.NO_PERMISSION, "no")
		}
		var answer any
		if req.ExtFields["part"] == PartBrokers {
			brokers, elections := routes.PeerBrokers(testNow)
			answer = BrokersAnswer{Brokers: brokers, Elections: elections}
		} else {
			shard, _ := strconv.Atoi(req.ExtFields["shard"])
			page, next, done := routes.PeerTopics(route.TopicCursor{Shard: shard, After: req.ExtFields["after"]}, pageBytes)
			p.pages.Add(1)
			answer = TopicsAnswer{Page: page, Next: next, Done: done}
		}
		body, _ := json.Marshal(answer)
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.Body = body
		return resp
	}, remoting.Slow())
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	p.addr = srv.Addr().String()
	return p
}

// peerRoutes is a peer with brokers broker names of one member each, every
// one routing topics topics.
func peerRoutes(t *testing.T, brokers, topics int) *route.Manager {
	t.Helper()
	m := route.NewManager(route.Config{})
	table := map[string]route.TopicConfig{}
	for i := range topics {
		name := fmt.Sprintf("FetchTopic%d", i)
		table[name] = route.TopicConfig{TopicName: name, ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}
	}
	for i := range brokers {
		req := &route.RegisterBrokerRequest{ClusterName: "c", BrokerName: fmt.Sprintf("b%d", i), BrokerAddr: fmt.Sprintf("10.1.0.%d:10911", i),
			Conn: route.ConnID(i + 1), FilterServersGiven: true, Body: &route.RegisterBrokerBody{
				TopicConfigSerializeWrapper: route.TopicConfigSerializeWrapper{TopicConfigTable: table}, FilterServerList: []string{}}}
		if _, _, err := m.RegisterBroker(req, testNow); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

func TestRunInstallsEveryPageOfThePeer(t *testing.T) {
	peer := startFakePeer(t, peerRoutes(t, 3, 300), 500)
	m := route.NewManager(route.Config{})
	res := Start{Peers: []string{peer.addr}, Routes: m, Deadline: testNow.Add(time.Minute),
		Now: func() time.Time { return testNow }, Timeout: 20 * time.Second}.Run(context.Background())
	if len(res.Answered) != 1 || res.Counts.Brokers != 3 || res.Counts.Topics != 300 || res.Counts.QueueDatas != 900 {
		t.Fatalf("result %+v", res)
	}
	if peer.pages.Load() < 5 {
		t.Fatalf("%d pages: the answer was not paged", peer.pages.Load())
	}
	if got := len(m.AllTopicList().TopicList); got != 300 {
		t.Fatalf("%d topics installed", got)
	}
}

func TestRunGivesUpARefusingPeer(t *testing.T) {
	peer := startFakePeer(t, peerRoutes(t, 1, 3), 1<<20)
	peer.refuse.Store(true)
	m := route.NewManager(route.Config{})
	res := Start{Peers: []string{peer.addr}, Routes: m, Deadline: testNow.Add(time.Minute),
		Now: func() time.Time { return testNow }, Timeout: 20 * time.Second}.Run(context.Background())
	if len(res.Answered) != 0 || len(m.AllTopicList().TopicList) != 0 {
		t.Fatalf("a refusing peer's state installed: %+v", res)
	}
}

// TestRunReturnsOnceOnePeerAnswered: a silent peer beside one that
// answers does not hold the start until the timeout.
func TestRunReturnsOnceOnePeerAnswered(t *testing.T) {
	peer := startFakePeer(t, peerRoutes(t, 1, 3), 1<<20)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	m := route.NewManager(route.Config{})
	res := Start{Peers: []string{ln.Addr().String(), peer.addr}, Routes: m, Deadline: testNow.Add(time.Minute),
		Now: func() time.Time { return testNow }, Timeout: time.Hour}.Run(context.Background())
	if len(res.Answered) != 1 || res.Answered[0] != peer.addr || len(m.AllTopicList().TopicList) != 3 {
		t.Fatalf("result %+v", res)
	}
}
