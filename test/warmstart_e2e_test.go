package test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/warmstart"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

const (
	warmKey    = "warmPeerKey"
	warmSecret = "warmPeerSecret"
)

// warmPair is two NameServers, each the other's peer, sharing peer keys.
type warmPair struct {
	a, b *process
}

func startWarmPair(t *testing.T, extra ...string) warmPair {
	t.Helper()
	portA, portB := freePort(t), freePort(t)
	addrA, addrB := "127.0.0.1:"+strconv.Itoa(portA), "127.0.0.1:"+strconv.Itoa(portB)
	args := func(peer string) []string {
		return append([]string{"-peerNamesrvAddrs", peer, "-peerAccessKey", warmKey, "-peerSecretKey", warmSecret}, extra...)
	}
	return warmPair{a: startNamesrvIn(t, t.TempDir(), portA, args(addrB)...), b: startNamesrvIn(t, t.TempDir(), portB, args(addrA)...)}
}

// warmBrokers are brokers fake enough to register and never again: 12
// broker names of 2 members in 3 clusters, 40 topics each cluster.
func warmBrokers() []nstest.Broker {
	var out []nstest.Broker
	for c := range 3 {
		topics := map[string]int32{}
		for i := range 40 {
			topics[fmt.Sprintf("WarmTopic-%d-%d", c, i)] = 4
		}
		for n := range 4 {
			for id := range 2 {
				port := 20000 + c*100 + n*10 + id
				out = append(out, nstest.Broker{Cluster: fmt.Sprintf("WarmCluster%d", c), Name: fmt.Sprintf("warm-%d-%d", c, n),
					Addr: "127.0.0.1:" + strconv.Itoa(port), HAAddr: "127.0.0.1:" + strconv.Itoa(port+1), ID: int64(id),
					Topics: topics, Version: route.DataVersion{Counter: int64(n + 1), Timestamp: 1000}})
			}
		}
	}
	return out
}

// registerAll registers every broker with addr over one connection, kept
// open until the test ends (a closed connection would unregister them).
func registerAll(t *testing.T, addr string, brokers []nstest.Broker) *remoting.Client {
	t.Helper()
	c := nstest.NewClient(t, addr)
	for _, b := range brokers {
		nstest.MustCode(t, nstest.Register(t, c, b), remoting.SUCCESS)
	}
	return c
}

func topicsOf(brokers []nstest.Broker) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range brokers {
		for topic := range b.Topics {
			if !seen[topic] {
				seen[topic] = true
				out = append(out, topic)
			}
		}
	}
	return out
}

// sameRoutesNow asks both servers for every topic once, with no waiting:
// the restarted one must answer each as its peer does at the first ask.
func sameRoutesNow(t *testing.T, restarted, peer string, topics []string) {
	t.Helper()
	for _, topic := range topics {
		got, code, err := routeOf(restarted, topic)
		if err != nil || code != remoting.SUCCESS {
			t.Fatalf("route of %s from the restarted server: code %d, %v", topic, code, err)
		}
		want, _, err := routeOf(peer, topic)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("route of %s: restarted %+v, peer %+v", topic, got, want)
		}
	}
}

// borrowedMillis asks addr, signed as a peer, which addresses it borrows
// and for how long.
func borrowedMillis(t *testing.T, addr string) map[string]int64 {
	t.Helper()
	req := remoting.NewRequest(warmstart.Code, map[string]string{"part": warmstart.PartBrokers}, nil)
	aclsign.Sign(req.ExtFields, nil, aclsign.Credentials{AccessKey: warmKey, SecretKey: warmSecret})
	c := nstest.NewClient(t, addr)
	resp := nstest.Invoke(t, c, req)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	var answer warmstart.BrokersAnswer
	if err := json.Unmarshal(resp.Body, &answer); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, b := range answer.Brokers {
		out[b.Addr] = b.BorrowedMillis
	}
	return out
}

// TestWarmStartAfterRestartAnswersEveryRoute: of a pair of peers with every
// broker registered to both, the one restarted (SIGTERM, then kill -9)
// answers every topic's route as its peer does from its first accepted
// connection on, though no broker registered with it again; then the
// other is restarted too, before any broker re-registered: it borrows
// from the first, which only borrows, and keeps the first one's earlier
// deadlines.
func TestWarmStartAfterRestartAnswersEveryRoute(t *testing.T) {
	pair := startWarmPair(t)
	brokers := warmBrokers()
	topics := topicsOf(brokers)
	registerAll(t, pair.a.Addr, brokers)
	registerAll(t, pair.b.Addr, brokers)

	for _, how := range []string{"SIGTERM", "kill -9"} {
		if how == "SIGTERM" {
			pair.a.Stop()
		} else {
			pair.a.Kill()
		}
		pair.a.start() // returns once it accepts connections
		sameRoutesNow(t, pair.a.Addr, pair.b.Addr, topics)
	}

	// a only borrows now; restart b: it borrows a's borrowed entries.
	fromA := borrowedMillis(t, pair.a.Addr)
	for _, b := range brokers {
		if fromA[b.Addr] <= 0 {
			t.Fatalf("%s not borrowed on a: %v", b.Addr, fromA)
		}
	}
	wantRoutes := map[string]*route.TopicRouteData{}
	for _, topic := range topics {
		r, _, err := routeOf(pair.b.Addr, topic)
		if err != nil {
			t.Fatal(err)
		}
		wantRoutes[topic] = r
	}
	pair.b.Kill()
	pair.b.start()
	for _, topic := range topics {
		got, code, err := routeOf(pair.b.Addr, topic)
		if err != nil || code != remoting.SUCCESS || !reflect.DeepEqual(got, wantRoutes[topic]) {
			t.Fatalf("route of %s from b restarted after a: code %d %v %+v, want %+v", topic, code, err, got, wantRoutes[topic])
		}
	}
	// b's deadlines are a's (asked before b restarted, so only later).
	fromB := borrowedMillis(t, pair.b.Addr)
	for _, b := range brokers {
		if fromB[b.Addr] <= 0 || fromB[b.Addr] > fromA[b.Addr] {
			t.Fatalf("%s borrowed on b for %d ms, on a for %d ms asked earlier: b must keep a's earlier deadline",
				b.Addr, fromB[b.Addr], fromA[b.Addr])
		}
	}
}

// TestWarmStartBorrowedEntriesLeave: on a restarted server whose
// brokerChannelExpiredTime is short, a borrowed broker the peer drops goes
// at the next re-poll, one that registers here stays, and the rest go at
// the deadline.
func TestWarmStartBorrowedEntriesLeave(t *testing.T) {
	pair := startWarmPair(t, "-brokerChannelExpiredTime", "8000", "-scanNotActiveBrokerInterval", "200")
	brokers := warmBrokers()[:4] // warm-0-0 and warm-0-1, two members each
	registerAll(t, pair.a.Addr, brokers)
	peerConns := make([]*remoting.Client, len(brokers))
	for i, b := range brokers {
		peerConns[i] = registerAll(t, pair.b.Addr, []nstest.Broker{b})
	}
	pair.a.Kill()
	pair.a.start()
	sameRoutesNow(t, pair.a.Addr, pair.b.Addr, topicsOf(brokers))

	// warm-0-0's master leaves b (its connection closes): a drops it.
	_ = peerConns[0].Close()
	eventually(t, 20*time.Second, "a drops the broker b no longer has", func() error {
		known, err := brokerAddrsOf(pair.a.Addr)
		if err != nil {
			return err
		}
		if known["warm-0-0/0="+brokers[0].Addr] {
			return fmt.Errorf("still there: %v", known)
		}
		if !known["warm-0-0/1="+brokers[1].Addr] {
			return fmt.Errorf("its slave went too: %v", known)
		}
		return nil
	})
	// warm-0-1's master registers with a: it is its own.
	own := registerAll(t, pair.a.Addr, brokers[2:3])
	defer own.Close()
	eventually(t, 30*time.Second, "the deadline removes the rest", func() error {
		known, err := brokerAddrsOf(pair.a.Addr)
		if err != nil {
			return err
		}
		if len(known) != 1 || !known["warm-0-1/0="+brokers[2].Addr] {
			return fmt.Errorf("known %v, want only the registered master", known)
		}
		return nil
	})
	if _, code, _ := routeOf(pair.a.Addr, "WarmTopic-0-0"); code != remoting.SUCCESS {
		t.Fatalf("the registered broker's topic answered code %d", code)
	}
}

// TestWarmStartRefusesStrangers: the peer route state is answered only to
// requests signed with the server's peer keys; others get code 16.
func TestWarmStartRefusesStrangers(t *testing.T) {
	pair := startWarmPair(t)
	c := nstest.NewClient(t, pair.a.Addr)
	for name, cred := range map[string]aclsign.Credentials{
		"unsigned":   {},
		"wrong key":  {AccessKey: warmKey, SecretKey: "not-the-secret"},
		"other user": {AccessKey: "rocketmq2", SecretKey: warmSecret},
	} {
		req := remoting.NewRequest(warmstart.Code, map[string]string{"part": warmstart.PartTopics, "shard": "0"}, nil)
		if !cred.Empty() {
			aclsign.Sign(req.ExtFields, nil, cred)
		}
		if resp := nstest.Invoke(t, c, req); resp.Code != remoting.NO_PERMISSION {
			t.Errorf("%s: code %d %q, want 16", name, resp.Code, resp.Remark)
		}
	}
}

// TestWarmStartWithoutPeersStartsEmpty: a server whose peers do not answer
// (one refuses connections, one accepts and never answers) starts once
// peerWarmStartTimeoutMillis has passed, empty, as without peers, and says
// so in its log.
func TestWarmStartWithoutPeersStartsEmpty(t *testing.T) {
	nobody := "127.0.0.1:" + strconv.Itoa(freePort(t))
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ns := startNamesrv(t, "-peerNamesrvAddrs", nobody+";"+silent.Addr().String(), "-peerAccessKey", warmKey,
		"-peerSecretKey", warmSecret, "-peerWarmStartTimeoutMillis", "1000")
	if _, code, err := routeOf(ns.Addr, "WarmTopic-0-0"); err != nil || code != remoting.TOPIC_NOT_EXIST {
		t.Fatalf("route on an empty server: code %d %v", code, err)
	}
	eventually(t, 10*time.Second, "the log says no peer answered", func() error {
		out, err := os.ReadFile(ns.logPath)
		if err != nil {
			return err
		}
		if !strings.Contains(string(out), "no peer answered within peerWarmStartTimeoutMillis") {
			return fmt.Errorf("log: %s", out)
		}
		return nil
	})
}
