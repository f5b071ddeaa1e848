package peers_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// startNamesrv runs a real NameServer on a free loopback port.
func startNamesrv(t *testing.T) *namesrv.NameServer {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Default()
	cfg.BindAddress, cfg.ListenPort, cfg.HTTPListenPort = "127.0.0.1", 0, -1
	cfg.ReadinessWarmUpMillis = 0
	cfg.KvConfigPath = filepath.Join(dir, "kvConfig.json")
	cfg.ConfigStorePath = filepath.Join(dir, "namesrv.properties")
	log := testlog.Discard()
	ns, err := namesrv.New(config.NewSettings(cfg, log), log)
	if err != nil {
		t.Fatalf("start name server: %v", err)
	}
	t.Cleanup(func() { _ = ns.Shutdown(context.Background()) })
	return ns
}

// wireLocal is a NameServer's tables read over the wire, the way the
// watcher reads a peer's.
type wireLocal struct {
	t    *testing.T
	addr string
}

func (l wireLocal) ClusterInfo() route.ClusterInfo {
	return wireAsk(l, remoting.GET_BROKER_CLUSTER_INFO, route.DecodeClusterInfo)
}

func (l wireLocal) AllTopicList() route.TopicList {
	return wireAsk(l, remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, route.DecodeTopicList)
}

// wireAsk sends one request to l's server and decodes the answer.
func wireAsk[T any](l wireLocal, code int32, decode func([]byte) (*T, error)) T {
	var zero T
	resp, err := nstest.Call(l.addr, code, nil, nil, 3*time.Second)
	if err != nil {
		l.t.Errorf("request %d to %s: %v", code, l.addr, err)
		return zero
	}
	v, err := decode(resp.Body)
	if err != nil {
		l.t.Errorf("decode the answer to %d: %v", code, err)
		return zero
	}
	return *v
}

// waitStatus polls the watcher until its status of addr satisfies ok.
func waitStatus(t *testing.T, w *peers.Watcher, addr, what string, ok func(peers.Status) bool) peers.Status {
	t.Helper()
	var last peers.Status
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, st := range w.Statuses() {
			if st.Addr == addr {
				last = st
				if ok(st) {
					return st
				}
			}
		}
	}
	t.Fatalf("%s: last status of %s %+v", what, addr, last)
	return last
}

// TestWatcherSeesAgreementDifferenceAndDeath: two real NameServers with
// the same broker agree; a topic only the peer has is named; the peer
// stopped shows down with the reason, and its last time up is kept.
func TestWatcherSeesAgreementDifferenceAndDeath(t *testing.T) {
	local, peer := startNamesrv(t), startNamesrv(t)
	localAddr, peerAddr := local.Addr().String(), peer.Addr().String()
	for _, addr := range []string{localAddr, peerAddr} {
		c := nstest.NewClient(t, addr)
		nstest.MustCode(t, nstest.Register(t, c, nstest.BrokerAMaster), remoting.SUCCESS)
	}
	logger, hook := logtest.NewNullLogger()
	var heal atomic.Int64
	heal.Store(int64(time.Hour))
	w := peers.Start(peers.Config{Peers: func() []string { return []string{peerAddr} }, Local: wireLocal{t, localAddr},
		Log: logrus.NewEntry(logger), Interval: 50 * time.Millisecond, Timeout: time.Second,
		HealWindow: func() time.Duration { return time.Duration(heal.Load()) }})
	t.Cleanup(w.Stop)

	st := waitStatus(t, w, peerAddr, "the peer up and agreeing", func(st peers.Status) bool { return st.Up && st.RoutesAgree })
	if st.Brokers != 1 || st.BrokerNames != 1 || st.Topics != len(nstest.BrokerAMaster.Topics) || st.LastUpMillis == 0 {
		t.Fatalf("agreeing peer: %+v", st)
	}

	extra := nstest.BrokerAMaster
	extra.Topics = map[string]int32{"OnlyOnThePeer": 4}
	for name, queues := range nstest.BrokerAMaster.Topics {
		extra.Topics[name] = queues
	}
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, peerAddr), extra), remoting.SUCCESS)
	// Within the heal window the difference is told as healing: the
	// routes still agree.
	st = waitStatus(t, w, peerAddr, "the difference told as healing", func(st peers.Status) bool { return st.HealingCount > 0 })
	if !st.Up || !st.RoutesAgree || len(st.Differences) != 0 || len(st.Healing) != 1 || st.Healing[0] != "1 topics only there: OnlyOnThePeer" {
		t.Fatalf("peer with a new difference: %+v", st)
	}
	// Once it has lasted the window it counts.
	heal.Store(int64(300 * time.Millisecond))
	st = waitStatus(t, w, peerAddr, "the difference named", func(st peers.Status) bool { return !st.RoutesAgree })
	if !st.Up || len(st.Differences) != 1 || st.Differences[0] != "1 topics only there: OnlyOnThePeer" || st.HealingCount != 0 {
		t.Fatalf("disagreeing peer: %+v", st)
	}

	if err := peer.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A check under way at the stop may fail at its second request (the
	// topic list); every check after it fails at its first.
	st = waitStatus(t, w, peerAddr, "the stopped peer down", func(st peers.Status) bool {
		return !st.Up && strings.HasPrefix(st.Error, "cluster info: ")
	})
	if st.LastUpMillis == 0 || st.LastUpMillis >= st.CheckedMillis {
		t.Fatalf("stopped peer: %+v", st)
	}
	var warned int
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.WarnLevel && e.Message == "peer NameServer changed state" && e.Data["peer"] == peerAddr && e.Data["up"] == false {
			warned++
		}
	}
	if warned != 1 {
		t.Fatalf("%d warnings that the peer went down, want 1", warned)
	}
}

// TestWatcherFollowsThePeerList: an emptied list leaves no statuses.
func TestWatcherFollowsThePeerList(t *testing.T) {
	local := startNamesrv(t)
	list := make(chan []string, 1)
	current := []string{"127.0.0.1:1"}
	w := peers.Start(peers.Config{Peers: func() []string {
		select {
		case current = <-list:
		default:
		}
		return current
	}, Local: wireLocal{t, local.Addr().String()}, Interval: 20 * time.Millisecond, Timeout: 200 * time.Millisecond})
	t.Cleanup(w.Stop)
	waitStatus(t, w, "127.0.0.1:1", "a dead address down", func(st peers.Status) bool { return !st.Up && st.Error != "" })
	list <- nil
	for deadline := time.Now().Add(10 * time.Second); len(w.Statuses()) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("statuses %+v after the list was emptied", w.Statuses())
		}
	}
}

// onceExtraTopic is a Local whose first topic list has one topic more, as a
// check whose reads straddle a registration sees.
type onceExtraTopic struct {
	wireLocal
	calls *atomic.Int32
}

func (l onceExtraTopic) AllTopicList() route.TopicList {
	list := l.wireLocal.AllTopicList()
	if l.calls.Add(1) == 1 {
		list.TopicList = append(list.TopicList, "OnlyInOneCheck")
	}
	return list
}

// TestADifferenceOneCheckAloneSeesIsNotReported: the first check sees a
// topic only here (a registration straddled): it is told as healing, and
// the peer is not reported disagreeing (only a difference that lasts the
// heal window is: TestWatcherSeesAgreementDifferenceAndDeath).
func TestADifferenceOneCheckAloneSeesIsNotReported(t *testing.T) {
	local, peer := startNamesrv(t), startNamesrv(t)
	localAddr, peerAddr := local.Addr().String(), peer.Addr().String()
	for _, addr := range []string{localAddr, peerAddr} {
		nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, addr), nstest.BrokerAMaster), remoting.SUCCESS)
	}
	calls := &atomic.Int32{}
	w := peers.Start(peers.Config{Peers: func() []string { return []string{peerAddr} },
		Local: onceExtraTopic{wireLocal{t, localAddr}, calls}, Interval: time.Hour, Timeout: time.Second})
	t.Cleanup(w.Stop)
	st := waitStatus(t, w, peerAddr, "the first check", func(st peers.Status) bool { return st.CheckedMillis != 0 })
	if calls.Load() != 1 || !st.Up || !st.RoutesAgree || len(st.Differences) != 0 || st.HealingCount != 1 {
		t.Fatalf("after one check that saw a difference (%d local lists): %+v, want agreeing, the topic healing", calls.Load(), st)
	}
}
