package remoting

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// silentConns dials n connections that never send a byte.
func silentConns(t *testing.T, server *Server, n int) {
	for range n {
		dialRaw(t, server)
	}
}

// eventuallyAnswered retries a fresh connection's request until one is
// answered: at the cap, a newcomer closes a connection silent for
// quietEvictAge, so it is answered once the silent ones are that old.
func eventuallyAnswered(t *testing.T, try func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !try() {
		if time.Now().After(deadline) {
			t.Fatal("no new connection was answered while silent ones held the cap")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSilentConnectionsYieldToANewcomer: with maxConnections 3 taken by
// connections that never spoke, a new client is answered (the oldest
// silent one is closed for it), while a connection that spoke is never
// closed for another. Before, the newcomer was refused until the silent
// ones reached the idle timeout.
func TestSilentConnectionsYieldToANewcomer(t *testing.T) {
	server := startServer(t, ServerConfig{MaxConnections: 3}, func(s *Server) { s.Handle(GET_NAMESRV_CONFIG, echoHandler) })
	talker := dialRaw(t, server)
	talker.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 1})
	talker.read()
	silentConns(t, server, 2)
	eventuallyAnswered(t, func() bool {
		conn, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit)
		if err != nil {
			return false
		}
		defer conn.Close()
		return askOnce(conn, 2)
	})
	if server.EvictedConnections() == 0 {
		t.Fatal("EvictedConnections = 0 after a silent connection yielded")
	}
	talker.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 3})
	if got := talker.read(); got.Opaque != 3 {
		t.Fatalf("the connection that spoke got %+v", got)
	}
}

// TestTLSHandshakesCountedAndCapped: connections in their TLS handshake
// count against maxConnections from their accept (before, only finished
// handshakes did, so silent connections took descriptors past the cap),
// and past the cap or tlsHandshakeMaxConcurrent a TLS client still gets
// in once the silent ones are older than quietEvictAge.
func TestTLSHandshakesCountedAndCapped(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, caps := range map[string][2]int{"maxConnections": {3, 100}, "tlsHandshakeMaxConcurrent": {100, 3}} {
		t.Run(name, func(t *testing.T) {
			cfg := ServerConfig{MaxConnections: caps[0]}
			cfg.TLS = &TLSOptions{Mode: TLSEnforcing, CertPath: certs.ServerCert, KeyPath: certs.ServerKey, MaxHandshakes: caps[1]}
			server := startServer(t, cfg, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
			silentConns(t, server, 3)
			deadline := time.Now().Add(waitLimit)
			for server.OpenConnections() != 3 || server.Handshakes() != 3 {
				if time.Now().After(deadline) {
					t.Fatalf("open %d handshakes %d with 3 silent TLS connections, want 3 and 3", server.OpenConnections(), server.Handshakes())
				}
				time.Sleep(5 * time.Millisecond)
			}
			eventuallyAnswered(t, func() bool { return tlsEchoes(server.Addr().String(), certs.ClientTLS(false)) })
			if server.EvictedConnections() == 0 {
				t.Fatal("no handshake was closed for the newcomer")
			}
		})
	}
}

// tlsEchoes reports whether one echo over a fresh TLS client is answered.
func tlsEchoes(addr string, cfg *tls.Config) bool {
	client := NewClient(addr, ClientConfig{TLS: cfg, RequestTimeout: 2 * time.Second})
	defer client.Close()
	_, err := client.Invoke(context.Background(), NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "hi"}, nil))
	return err == nil
}

// TestFailedHandshakesLoggedOnceASecond: a burst of 50 failed TLS
// handshakes on the remoting port writes one warning (two if the burst
// spans a second), not 50.
func TestFailedHandshakesLoggedOnceASecond(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	logger, hook := logtest.NewNullLogger()
	server := startServer(t, ServerConfig{Logger: logrus.NewEntry(logger),
		TLS: &TLSOptions{Mode: TLSEnforcing, CertPath: certs.ServerCert, KeyPath: certs.ServerKey}}, nil)
	for range 50 {
		c := dialRaw(t, server)
		c.write([]byte("not a TLS record, not at all"))
		c.expectClosed()
	}
	lines := 0
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "TLS handshake failed") {
			lines++
		}
	}
	if lines < 1 || lines > 2 {
		t.Fatalf("%d warnings for 50 failed handshakes, want 1 or 2", lines)
	}
}
