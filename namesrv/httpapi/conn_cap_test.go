package httpapi

import (
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// TestConnectionCapYieldsQuietConnections: with httpMaxConnections 4 held
// by connections that send nothing, a connection past the cap is closed at
// once and counted, and a probe gets in once the silent ones have been
// quiet for QuietEvictAge (one of them is closed for it). Before, the side
// port had no cap: every silent connection held a descriptor.
func TestConnectionCapYieldsQuietConnections(t *testing.T) {
	s, err := New("127.0.0.1:0", testlog.Discard(), Options{MaxConnections: 4})
	if err != nil {
		t.Fatal(err)
	}
	shutdownAtCleanup(t, s)
	for range 4 {
		c, err := net.Dial("tcp", s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.OpenConnections() != 4 {
		if time.Now().After(deadline) {
			t.Fatalf("open %d, want 4", s.OpenConnections())
		}
		time.Sleep(5 * time.Millisecond)
	}
	for {
		a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: "http://" + s.Addr().String() + "/healthz"})
		if err == nil && a.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no probe answered past the cap of silent connections: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s.EvictedConnections() == 0 || s.OpenConnections() > 4 {
		t.Fatalf("evicted %d open %d; want at least 1 and at most 4", s.EvictedConnections(), s.OpenConnections())
	}
}
