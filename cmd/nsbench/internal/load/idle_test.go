package load

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestOpenIdleSetsUpEveryConnection(t *testing.T) {
	var probes atomic.Int64
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		probes.Add(1)
		return remoting.NewResponse(req, remoting.TOPIC_NOT_EXIST, "none")
	})
	conns, err := OpenIdle(context.Background(), addr, 40, "T")
	if err != nil {
		t.Fatal(err)
	}
	defer CloseConns(conns)
	if len(conns) != 40 || probes.Load() != 40 {
		t.Fatalf("%d connections, %d probes answered; want 40 of each", len(conns), probes.Load())
	}
	for i, c := range conns {
		if c == nil {
			t.Fatalf("connection %d missing", i)
		}
	}
}

func TestOpenIdleFailsWithoutAServer(t *testing.T) {
	if _, err := OpenIdle(context.Background(), "127.0.0.1:1", 3, "T"); err == nil {
		t.Fatal("no error without a server")
	}
}
