package load

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// heartbeatServer serves heartbeats over loopback, answering them with
// code, and counts them per broker address.
type heartbeatServer struct {
	mu   sync.Mutex
	sent map[string]int
}

func startHeartbeatServer(t *testing.T, code int32) (*heartbeatServer, string) {
	h := &heartbeatServer{sent: map[string]int{}}
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if req.Code == remoting.BROKER_HEARTBEAT {
			h.mu.Lock()
			h.sent[req.ExtFields["brokerAddr"]]++
			h.mu.Unlock()
		}
		return remoting.NewResponse(req, code, "")
	})
	return h, addr
}

func (h *heartbeatServer) count(addr string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sent[addr]
}

// waitFor polls until every broker of l has at least n heartbeats counted.
func (h *heartbeatServer) waitFor(t *testing.T, l *Layout, n int) {
	deadline := time.Now().Add(10 * time.Second)
	for _, b := range l.Brokers() {
		for h.count(b.Addr) < n {
			if time.Now().After(deadline) {
				t.Fatalf("broker %s: %d heartbeats, want %d", b.Addr, h.count(b.Addr), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

func TestKeepAliveHeartbeatsEveryBrokerUntilStopped(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 2, TopicsPerCluster: 1, QueueNums: 1})
	server, addr := startHeartbeatServer(t, remoting.SUCCESS)
	brokers, err := DialBrokers(context.Background(), addr, len(l.Brokers()))
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(brokers)
	stop := KeepAlive(context.Background(), l, brokers, 10*time.Millisecond)
	server.waitFor(t, l, 2)
	if failed := stop(); failed != 0 {
		t.Fatalf("%d heartbeats failed", failed)
	}
	after := server.count(l.Brokers()[0].Addr)
	time.Sleep(50 * time.Millisecond)
	if n := server.count(l.Brokers()[0].Addr); n != after {
		t.Fatalf("heartbeats went on after stop: %d -> %d", after, n)
	}
}

func TestKeepAliveCountsRefusedHeartbeats(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1})
	server, addr := startHeartbeatServer(t, remoting.SYSTEM_ERROR)
	brokers, err := DialBrokers(context.Background(), addr, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(brokers)
	stop := KeepAlive(context.Background(), l, brokers, time.Millisecond)
	// the server saw a fourth: the answers to the first three were read
	server.waitFor(t, l, 4)
	if failed := stop(); failed < 3 {
		t.Fatalf("%d refusals counted, want at least 3", failed)
	}
}
