package namesrv

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestMaxConnectionsKey: maxConnections reaches the server; the connection
// past it is closed at once and counted where metrics can read it.
func TestMaxConnectionsKey(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.MaxConnections = 1 }) // s.client holds the one connection
	s.call(t, remoting.GET_NAMESRV_CONFIG, nil, nil)                         // the client is connected
	extra := dialRaw(t, s.addr())
	if _, err := extra.read(); !closedByPeer(err) {
		t.Fatalf("the connection past maxConnections was not closed: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.ns.RefusedConnections() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("RefusedConnections = %d, want 1", s.ns.RefusedConnections())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if s.ns.OpenConnections() != 1 || s.ns.OutboundPauses() != 0 || s.ns.OutboundClosedConnections() != 0 {
		t.Fatalf("open %d, pauses %d, closed %d", s.ns.OpenConnections(), s.ns.OutboundPauses(), s.ns.OutboundClosedConnections())
	}
}
