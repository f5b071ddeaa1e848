package senders

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// brokerServer answers every request with SUCCESS and records the
// registrations it got by connection, and the connections that closed.
type brokerServer struct {
	addr   string
	mu     sync.Mutex
	regs   map[uint64]int
	closed map[uint64]bool
}

func newBrokerServer(t *testing.T) *brokerServer {
	t.Helper()
	b := &brokerServer{regs: map[uint64]int{}, closed: map[uint64]bool{}}
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Warnings()})
	srv.HandleDefault(func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		if req.Code == remoting.REGISTER_BROKER {
			b.mu.Lock()
			b.regs[conn.ID()]++
			b.mu.Unlock()
		}
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	srv.OnClose(func(conn *remoting.Conn) {
		b.mu.Lock()
		b.closed[conn.ID()] = true
		b.mu.Unlock()
	})
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	b.addr = srv.Addr().String()
	return b
}

// counts are the connections that registered, and how many of them closed.
func (b *brokerServer) counts() (registered, closed int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for id := range b.regs {
		if b.closed[id] {
			closed++
		}
	}
	return len(b.regs), closed
}

var smallSpec = load.LayoutSpec{Clusters: 2, BrokersPerCluster: 2, TopicsPerCluster: 10, QueueNums: 8}

func smallJob(addr string) Job {
	return Job{Addr: addr, Spec: smallSpec, Mode: load.RegisterNewVersion, PauseBelow: time.Millisecond,
		Window: load.Window{Warmup: 20 * time.Millisecond, Measure: 150 * time.Millisecond}}
}
