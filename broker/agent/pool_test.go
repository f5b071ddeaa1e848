package agent

import (
	"context"
	"errors"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestPoolRedialsAfterFailureAndClosesRemoved(t *testing.T) {
	ns := newFakeNameServers()
	p := newPool(ns.dial, []string{"a:1", "b:1"})
	req := func() *remoting.Command { return remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil) }
	if _, err := p.invoke(context.Background(), "a:1", req()); err != nil {
		t.Fatal(err)
	}
	ns.setDown("a:1", true)
	if _, err := p.invoke(context.Background(), "a:1", req()); err == nil {
		t.Fatal("invoke on a down name server succeeded")
	}
	if _, ok := p.clients["a:1"]; ok {
		t.Fatal("failed client kept")
	}
	ns.setDown("a:1", false)
	if _, err := p.invoke(context.Background(), "a:1", req()); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
	p.set([]string{"b:1"})
	if _, ok := p.clients["a:1"]; ok {
		t.Fatal("client of a removed name server kept")
	}
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.invoke(context.Background(), "b:1", req()); !errors.Is(err, ErrAgentStopped) {
		t.Fatalf("invoke after close: %v, want ErrAgentStopped", err)
	}
}
