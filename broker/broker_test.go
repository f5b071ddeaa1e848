package broker

import (
	"context"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// fakeNameServer is a remoting server that records registrations and tells
// slaves the address of the registered master, like a NameServer would.
type fakeNameServer struct {
	srv *remoting.Server

	mu         sync.Mutex
	registered map[string]*route.RegisterBrokerBody // by brokerAddr
	masters    map[string]string                    // brokerName -> master address
	unregister []string                             // brokerAddr of UNREGISTER_BROKER
}

func startFakeNameServer(t *testing.T) *fakeNameServer {
	t.Helper()
	f := &fakeNameServer{registered: map[string]*route.RegisterBrokerBody{}, masters: map[string]string{}}
	f.srv = remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", NumEventLoops: 1})
	f.srv.Handle(remoting.REGISTER_BROKER, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		body, err := route.DecodeRegisterBrokerBody(req.Body)
		if err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		addr := req.ExtFields["brokerAddr"]
		f.registered[addr] = body
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.ExtFields = map[string]string{}
		if req.ExtFields["brokerId"] == "0" {
			f.masters[req.ExtFields["brokerName"]] = addr
		} else if master := f.masters[req.ExtFields["brokerName"]]; master != "" {
			resp.ExtFields["masterAddr"] = master
			resp.ExtFields["haServerAddr"] = master
		}
		return resp
	})
	f.srv.Handle(remoting.UNREGISTER_BROKER, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.unregister = append(f.unregister, req.ExtFields["brokerAddr"])
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	if err := f.srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.srv.Shutdown(context.Background()) })
	return f
}

func (f *fakeNameServer) topicsOf(addr string) map[string]route.TopicConfig {
	f.mu.Lock()
	defer f.mu.Unlock()
	if body := f.registered[addr]; body != nil {
		return body.TopicConfigSerializeWrapper.TopicConfigTable
	}
	return nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func testBrokerConfig(t *testing.T, ns string, id int64) Config {
	cfg := DefaultConfig()
	cfg.BrokerName = "broker-a"
	cfg.BrokerID = id
	cfg.NamesrvAddr = ns
	cfg.ListenPort = 0
	cfg.StorePathRootDir = t.TempDir()
	cfg.AllowShortRegisterPeriod = true
	cfg.RegisterNameServerPeriod = 200 * time.Millisecond
	cfg.SlaveSyncPeriod = 100 * time.Millisecond
	return cfg
}

func TestMasterAndSlave(t *testing.T) {
	ns := startFakeNameServer(t)
	nsAddr := ns.srv.Addr().String()

	masterCfg := testBrokerConfig(t, nsAddr, 0)
	master, err := New(masterCfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := master.Start(); err != nil {
		t.Fatal(err)
	}
	defer master.Shutdown(context.Background())
	waitFor(t, "master registration", func() bool { return ns.topicsOf(master.Addr())["TBW102"].TopicName == "TBW102" })

	slave, err := New(testBrokerConfig(t, nsAddr, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := slave.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "slave learns its master", func() bool { return slave.MasterAddr() == master.Addr() })

	client := remoting.NewClient(master.Addr(), remoting.ClientConfig{})
	defer client.Close()
	attrs := ""
	header := admin.CreateTopicRequestHeader{Topic: "orders", DefaultTopic: "TBW102", ReadQueueNums: 3, WriteQueueNums: 3, Perm: 6, TopicFilterType: "SINGLE_TAG", Attributes: &attrs}
	resp, err := client.Invoke(context.Background(), remoting.NewRequest(remoting.UPDATE_AND_CREATE_TOPIC, remoting.EncodeHeader(header), nil))
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("create topic: %v %+v", err, resp)
	}
	waitFor(t, "name server sees the new topic", func() bool { return ns.topicsOf(master.Addr())["orders"].ReadQueueNums == 3 })
	waitFor(t, "slave copies the topic", func() bool {
		tc, ok := slave.Store().Get("orders")
		return ok && tc.WriteQueueNums == 3
	})

	if err := slave.Shutdown(context.Background()); err != nil {
		t.Fatalf("slave shutdown: %v", err)
	}
	ns.mu.Lock()
	unregistered := append([]string(nil), ns.unregister...)
	ns.mu.Unlock()
	if len(unregistered) != 1 || unregistered[0] != slave.announcedAddr() {
		t.Fatalf("unregistrations %v, want the slave's address", unregistered)
	}

	// topics.json survives a restart of the master.
	if err := master.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	again, err := New(masterCfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := again.Store().Get("orders"); !ok || tc.ReadQueueNums != 3 {
		t.Fatalf("after restart: %+v, %v", tc, ok)
	}
}

func TestAnnouncedAddressUsesBrokerIP1AndBoundPort(t *testing.T) {
	cfg := testBrokerConfig(t, "", 0)
	cfg.BrokerIP1 = "10.1.2.3"
	b, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Shutdown(context.Background())
	host, port, _ := net.SplitHostPort(b.Addr())
	if n, _ := strconv.Atoi(port); host != "10.1.2.3" || n == 0 {
		t.Fatalf("Addr() = %s", b.Addr())
	}
	if err := b.Start(); err == nil {
		t.Fatal("second Start succeeded")
	}
}
