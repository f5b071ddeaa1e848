package broker

import (
	"context"
	"fmt"
	"testing"
)

func TestSimulation(t *testing.T) {
	ns := startFakeNameServer(t)
	cfg := testBrokerConfig(t, ns.srv.Addr().String(), 0)
	cfg.ListenPort = 20000
	sim, err := StartSimulation(cfg, 3, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		addr := fmt.Sprintf("127.0.0.1:%d", 20000+i)
		waitFor(t, "registration of "+addr, func() bool {
			topics := ns.topicsOf(addr)
			_, ok := topics["SimTopic-4"]
			return ok && topics[fmt.Sprintf("broker-a-%d", i)].TopicName != ""
		})
	}
	if err := sim.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if len(ns.unregister) != 3 {
		t.Fatalf("%d unregistrations, want 3", len(ns.unregister))
	}
	if _, err := StartSimulation(cfg, 0, 1, nil); err == nil {
		t.Fatal("simulation of 0 brokers accepted")
	}
}
