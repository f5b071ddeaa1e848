package load

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func osPid() int { return os.Getpid() }

func TestSeedRegistersEveryBrokerOnItsOwnConnection(t *testing.T) {
	var registered atomic.Int64
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if req.Code == remoting.REGISTER_BROKER {
			registered.Add(1)
		}
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 3, TopicsPerCluster: 10, QueueNums: 8})
	clients, err := Dial(context.Background(), addr, len(l.Brokers()), testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(clients)
	if err := Seed(context.Background(), NewRegistrations(l), clients, FirstVersion); err != nil {
		t.Fatal(err)
	}
	if registered.Load() != 6 {
		t.Fatalf("%d registrations, want 6", registered.Load())
	}
}

func TestSeedFailsWhenTheServerRefuses(t *testing.T) {
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if req.Code == remoting.REGISTER_BROKER {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, "register broker failed")
		}
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 2, TopicsPerCluster: 1, QueueNums: 8})
	clients, err := Dial(context.Background(), addr, 2, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	defer CloseAll(clients)
	if err := Seed(context.Background(), NewRegistrations(l), clients, FirstVersion); !errors.Is(err, ErrSeedRefused) {
		t.Fatalf("err %v, want ErrSeedRefused", err)
	}
}

func TestDialFailsWithoutAServer(t *testing.T) {
	if _, err := Dial(context.Background(), "127.0.0.1:1", 2, testlog.Warnings()); err == nil {
		t.Fatal("dialing a closed port must fail")
	}
}

func TestForEachRunsEveryIndexAndKeepsTheFirstError(t *testing.T) {
	var seen [50]atomic.Bool
	boom := errors.New("boom")
	err := forEach(len(seen), 4, func(i int) error {
		seen[i].Store(true)
		if i == 7 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	for i := range seen {
		if !seen[i].Load() {
			t.Fatalf("index %d never ran", i)
		}
	}
}
