package test

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestRegisterQueryUnregister(t *testing.T) {
	ns := startNamesrv(t)
	c := nstest.NewClient(t, ns.Addr)
	if resp := nstest.Register(t, c, nstest.BrokerAMaster); resp.ExtFields["masterAddr"] != "" {
		t.Fatalf("a master got masterAddr %q", resp.ExtFields["masterAddr"])
	}
	slaveResp := nstest.Register(t, c, nstest.BrokerASlave)
	if slaveResp.ExtFields["masterAddr"] != nstest.BrokerAMaster.Addr || slaveResp.ExtFields["haServerAddr"] != nstest.BrokerAMaster.HAAddr {
		t.Fatalf("slave answer ext %v, want the master's address and HA address", slaveResp.ExtFields)
	}
	nstest.Register(t, c, nstest.BrokerB)

	// Standard JSON for clients of version >= 401, bare numeric keys below.
	standard := nstest.RouteQuery(t, c, "TopicTest", 479)
	if !strings.Contains(string(standard.Body), `"brokerAddrs":{"0":"127.0.0.1:10911","1":"127.0.0.1:10921"}`) {
		t.Fatalf("standard route body %s", standard.Body)
	}
	plain := nstest.RouteQuery(t, c, "TopicTest", 317)
	if !strings.Contains(string(plain.Body), `"brokerAddrs":{0:"127.0.0.1:10911",1:"127.0.0.1:10921"}`) {
		t.Fatalf("plain route body %s", plain.Body)
	}
	data := nstest.DecodeRoute(t, standard)
	queues := map[string]int32{}
	for _, q := range data.QueueDatas {
		queues[q.BrokerName] = q.WriteQueueNums
	}
	if len(data.BrokerDatas) != 2 || queues["broker-a"] != 8 || queues["broker-b"] != 4 {
		t.Fatalf("route brokers %v queues %v", data.BrokerDatas, queues)
	}

	// Topic lists and cluster info.
	all := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil))
	list, err := route.DecodeTopicList(all.Body)
	if err != nil || len(list.TopicList) != 3 {
		t.Fatalf("all topics %q (%v), want TopicTest, TopicA, TopicB", all.Body, err)
	}
	infoResp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
	info, err := route.DecodeClusterInfo(infoResp.Body)
	if err != nil || len(info.ClusterAddrTable["DefaultCluster"]) != 2 || len(info.BrokerAddrTable["broker-a"].BrokerAddrs) != 2 {
		t.Fatalf("cluster info %q (%v)", infoResp.Body, err)
	}

	// Unregistering broker-b removes TopicB; TopicTest keeps broker-a only.
	nstest.MustCode(t, nstest.Invoke(t, c, remoting.NewRequest(remoting.UNREGISTER_BROKER, nstest.BrokerB.Identity(), nil)), remoting.SUCCESS)
	eventually(t, 2*time.Second, "TopicB gone after unregister", func() error {
		if resp := nstest.RouteQuery(t, c, "TopicB", 479); resp.Code != remoting.TOPIC_NOT_EXIST {
			return fmt.Errorf("code %d", resp.Code)
		}
		return nil
	})
	if data := nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicTest", 479)); len(data.BrokerDatas) != 1 || data.BrokerDatas[0].BrokerName != "broker-a" {
		t.Fatalf("TopicTest after unregister: %+v", data.BrokerDatas)
	}
}

func TestWipeAndAddWritePerm(t *testing.T) {
	ns := startNamesrv(t)
	c := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, c, nstest.BrokerAMaster)
	wipe := nstest.Invoke(t, c, remoting.NewRequest(remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "broker-a"}, nil))
	nstest.MustCode(t, wipe, remoting.SUCCESS)
	if wipe.ExtFields["wipeTopicCount"] != "2" {
		t.Fatalf("wipeTopicCount %q, want 2", wipe.ExtFields["wipeTopicCount"])
	}
	if perm := nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicTest", 479)).QueueDatas[0].Perm; perm != route.PermRead {
		t.Fatalf("perm after wipe %d, want 4", perm)
	}
	add := nstest.Invoke(t, c, remoting.NewRequest(remoting.ADD_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "broker-a"}, nil))
	if add.ExtFields["addTopicCount"] != "2" {
		t.Fatalf("addTopicCount %q, want 2", add.ExtFields["addTopicCount"])
	}
	if perm := nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicTest", 479)).QueueDatas[0].Perm; perm != route.PermRead|route.PermWrite {
		t.Fatalf("perm after add %d, want 6", perm)
	}
}

func kvRequest(code int32, ns, key, value string) *remoting.Command {
	ext := map[string]string{"namespace": ns, "key": key}
	if value != "" {
		ext["value"] = value
	}
	return remoting.NewRequest(code, ext, nil)
}

func TestKVConfigSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	ns := startNamesrvIn(t, dir, port)
	c := nstest.NewClient(t, ns.Addr)
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(remoting.PUT_KV_CONFIG, "ns1", "k1", "v1")), remoting.SUCCESS)
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(remoting.PUT_KV_CONFIG, "ns1", "k2", "größe=√2 名前")), remoting.SUCCESS)
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(remoting.DELETE_KV_CONFIG, "ns1", "k1", "")), remoting.SUCCESS)
	noValue := nstest.Invoke(t, c, kvRequest(remoting.PUT_KV_CONFIG, "ns1", "k3", ""))
	if noValue.Code != remoting.SYSTEM_ERROR || !strings.Contains(noValue.Remark, "value") {
		t.Fatalf("PUT without value: code %d remark %q, want a refusal naming the value", noValue.Code, noValue.Remark)
	}

	ns.Kill() // a crash: everything acknowledged must be on disk
	ns = startNamesrvIn(t, dir, port)
	c2 := nstest.NewClient(t, ns.Addr)
	got := nstest.Invoke(t, c2, kvRequest(remoting.GET_KV_CONFIG, "ns1", "k2", ""))
	if got.Code != remoting.SUCCESS || got.ExtFields["value"] != "größe=√2 名前" {
		t.Fatalf("after restart k2: code %d ext %v", got.Code, got.ExtFields)
	}
	if missing := nstest.Invoke(t, c2, kvRequest(remoting.GET_KV_CONFIG, "ns1", "k1", "")); missing.Code != remoting.QUERY_NOT_FOUND {
		t.Fatalf("deleted k1 after restart: code %d", missing.Code)
	}
	list := nstest.Invoke(t, c2, remoting.NewRequest(remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": "ns1"}, nil))
	table, err := route.DecodeKVTable(list.Body)
	if err != nil || len(table.Table) != 1 || table.Table["k2"] != "größe=√2 名前" {
		t.Fatalf("kv list %q (%v)", list.Body, err)
	}
}

func TestNamesrvConfigGetAndUpdate(t *testing.T) {
	ns := startNamesrv(t)
	c := nstest.NewClient(t, ns.Addr)
	get := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
	_, port, _ := net.SplitHostPort(ns.Addr)
	if !strings.Contains(string(get.Body), "\nlistenPort="+port+"\n") || !strings.Contains(string(get.Body), "enableAllTopicList=true\n") {
		t.Fatalf("config body %q", get.Body)
	}
	update := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("enableAllTopicList=false\n"))
	nstest.MustCode(t, nstest.Invoke(t, c, update), remoting.SUCCESS)
	if resp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)); resp.Code != remoting.SYSTEM_ERROR || resp.Remark != "disable" {
		t.Fatalf("topic list after disabling: code %d remark %q", resp.Code, resp.Remark)
	}
	black := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("kvConfigPath=/tmp/x\nenableAllTopicList=true\n"))
	if resp := nstest.Invoke(t, c, black); resp.Code != remoting.NO_PERMISSION {
		t.Fatalf("black-listed update: code %d", resp.Code)
	}
	if resp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)); resp.Code != remoting.SYSTEM_ERROR {
		t.Fatalf("a refused update changed enableAllTopicList: code %d", resp.Code)
	}
}

func TestBrokerConnectionCloseRemovesRoutes(t *testing.T) {
	ns := startNamesrv(t)
	brokerConn := remoting.NewClient(ns.Addr, remoting.ClientConfig{})
	nstest.Register(t, brokerConn, nstest.BrokerB)
	c := nstest.NewClient(t, ns.Addr)
	nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicB", 479))
	brokerConn.Close()
	eventually(t, time.Second, "route gone after the broker's connection closed", func() error {
		if resp := nstest.RouteQuery(t, c, "TopicB", 479); resp.Code != remoting.TOPIC_NOT_EXIST {
			return fmt.Errorf("code %d", resp.Code)
		}
		return nil
	})
}

func TestEvictionOfSilentBroker(t *testing.T) {
	ns := startNamesrv(t, "-scanNotActiveBrokerInterval", "100")
	c := nstest.NewClient(t, ns.Addr)
	// Each broker on its own connection, as real brokers: the eviction closes
	// the silent broker's connection, which must not take the other along.
	silent := nstest.BrokerB
	silent.TimeoutMillis = 300
	nstest.Register(t, nstest.NewClient(t, ns.Addr), silent)
	alive := nstest.BrokerAMaster
	alive.TimeoutMillis = 5000 // generous: a loaded CI machine may delay a heartbeat
	aliveConn := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, aliveConn, alive)
	nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicB", 479))
	stop := make(chan struct{})
	defer close(stop)
	go func() { // broker-a heartbeats; broker-b stays silent
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				ext := map[string]string{"clusterName": alive.Cluster, "brokerAddr": alive.Addr, "brokerName": alive.Name}
				_ = aliveConn.InvokeOneway(nstest.Context(t), remoting.NewRequest(remoting.BROKER_HEARTBEAT, ext, nil))
			}
		}
	}()
	eventually(t, 5*time.Second, "silent broker evicted", func() error {
		if resp := nstest.RouteQuery(t, c, "TopicB", 479); resp.Code != remoting.TOPIC_NOT_EXIST {
			return fmt.Errorf("code %d", resp.Code)
		}
		return nil
	})
	if data := nstest.DecodeRoute(t, nstest.RouteQuery(t, c, "TopicA", 479)); len(data.BrokerDatas) != 1 {
		t.Fatalf("heartbeating broker lost its route: %+v", data)
	}
}

// TestNotifyMinBrokerIDChange listens as a slave broker and checks that the
// NameServer tells it when a master (a smaller id) joins its group (4.11).
func TestNotifyMinBrokerIDChange(t *testing.T) {
	ns := startNamesrv(t, "-notifyMinBrokerIdChanged=true")
	received := make(chan *remoting.Command, 4)
	slaveListener := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0"})
	slaveListener.Handle(remoting.NOTIFY_MIN_BROKER_ID_CHANGE, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		received <- req
		return nil
	})
	if err := slaveListener.Start(); err != nil {
		t.Fatal(err)
	}
	defer slaveListener.Shutdown(nstest.Context(t))

	slave := nstest.BrokerASlave
	slave.Addr = slaveListener.Addr().String()
	nstest.Register(t, nstest.NewClient(t, ns.Addr), slave)
	nstest.Register(t, nstest.NewClient(t, ns.Addr), nstest.BrokerAMaster)
	select {
	case req := <-received:
		if !req.IsOneway() || req.ExtFields["minBrokerId"] != "0" || req.ExtFields["minBrokerAddr"] != nstest.BrokerAMaster.Addr ||
			req.ExtFields["haBrokerAddr"] != nstest.BrokerAMaster.HAAddr {
			t.Fatalf("notification flag %d ext %v", req.Flag, req.ExtFields)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the slave got no NOTIFY_MIN_BROKER_ID_CHANGE")
	}
}

// TestIdleConnectionClosed checks serverChannelMaxIdleTimeSeconds.
func TestIdleConnectionClosed(t *testing.T) {
	ns := startNamesrv(t, "-serverChannelMaxIdleTimeSeconds", "1")
	conn, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	var one [1]byte
	if n, err := conn.Read(one[:]); n != 0 || err == nil || isTimeout(err) {
		t.Fatalf("idle connection still open after 10 s (read %d, err %v)", n, err)
	}
}

// TestGracefulStopExitsZero stops the binary with SIGTERM.
func TestGracefulStopExitsZero(t *testing.T) {
	ns := startNamesrv(t)
	c := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, c, nstest.BrokerAMaster)
	if code := ns.Stop(); code != 0 {
		t.Fatalf("exit code %d after SIGTERM, want 0", code)
	}
}

// TestGracefulStopAnswersGoAwayFirst: with enableShutdownGracefully, SIGTERM
// makes the binary answer GO_AWAY to 5.3.2+ clients for
// shutdownWaitTimeSeconds while older clients are still served (protocol.md
// 1.14), then it exits 0.
func TestGracefulStopAnswersGoAwayFirst(t *testing.T) {
	ns := startNamesrv(t, "-enableShutdownGracefully", "-shutdownWaitTimeSeconds", "2")
	c := nstest.NewClient(t, ns.Addr)
	nstest.Register(t, c, nstest.BrokerAMaster)
	nstest.MustCode(t, nstest.RouteQuery(t, c, "TopicA", 479), remoting.SUCCESS)
	stopped := make(chan int, 1)
	go func() { stopped <- ns.Stop() }()
	eventually(t, 5*time.Second, "GO_AWAY to a 5.3.3 client", func() error {
		if resp := nstest.RouteQuery(t, c, "TopicA", 479); resp.Code != remoting.GO_AWAY || resp.Remark != "please go away" {
			return fmt.Errorf("code %d remark %q", resp.Code, resp.Remark)
		}
		return nil
	})
	nstest.MustCode(t, nstest.RouteQuery(t, c, "TopicA", 401), remoting.SUCCESS) // a 4.9.4 client does not know GO_AWAY
	if code := <-stopped; code != 0 {
		t.Fatalf("exit code %d after SIGTERM, want 0", code)
	}
}
