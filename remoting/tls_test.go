package remoting

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// startTLSServer serves echo (on the loop) and a slow echo with the given
// mode and client authentication, certificates written for the test.
func startTLSServer(t *testing.T, mode TLSMode, auth tls.ClientAuthType, idle time.Duration) (*Server, *testcerts.Set) {
	t.Helper()
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := &TLSOptions{Mode: mode, CertPath: certs.ServerCert, KeyPath: certs.ServerKey, TrustCertPath: certs.CACert, ClientAuth: auth}
	server := startServer(t, ServerConfig{TLS: opts, IdleTimeout: idle}, func(s *Server) {
		s.Handle(PUT_KV_CONFIG, echoHandler)
		s.Handle(REGISTER_BROKER, echoHandler, Slow())
	})
	return server, certs
}

// echoOnce sends one small echo on the loop and one large on a worker.
func echoOnce(t *testing.T, addr string, cfg *tls.Config) error {
	t.Helper()
	client := NewClient(addr, ClientConfig{TLS: cfg, RequestTimeout: 5 * time.Second})
	defer client.Close()
	ctx := context.Background()
	resp, err := client.Invoke(ctx, NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "hi"}, []byte("small")))
	if err != nil {
		return err
	}
	if resp.Remark != "hi" || string(resp.Body) != "small" {
		t.Fatalf("small echo: %+v", resp)
	}
	large := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB: the large-frame path
	resp, err = client.Invoke(ctx, NewRequest(REGISTER_BROKER, nil, large))
	if err != nil {
		return err
	}
	if !bytes.Equal(resp.Body, large) {
		t.Fatalf("large echo: %d bytes back", len(resp.Body))
	}
	return nil
}

func TestTLSEnforcing(t *testing.T) {
	server, certs := startTLSServer(t, TLSEnforcing, tls.NoClientCert, 0)
	addr := server.Addr().String()
	if err := echoOnce(t, addr, certs.ClientTLS(false)); err != nil {
		t.Fatalf("TLS client: %v", err)
	}
	if err := echoOnce(t, addr, nil); err == nil {
		t.Fatal("a plain client was served in enforcing mode")
	}
	if server.TLSConfig() == nil || startServer(t, ServerConfig{}, nil).TLSConfig() != nil {
		t.Fatal("TLSConfig wrong")
	}
	if err := echoOnce(t, addr, certs.ClientTLS(false)); err != nil {
		t.Fatalf("TLS client after a refused plain one: %v", err)
	}
}

func TestTLSPermissive(t *testing.T) {
	server, certs := startTLSServer(t, TLSPermissive, tls.NoClientCert, 0)
	addr := server.Addr().String()
	if err := echoOnce(t, addr, certs.ClientTLS(false)); err != nil {
		t.Fatalf("TLS client: %v", err)
	}
	if err := echoOnce(t, addr, nil); err != nil {
		t.Fatalf("plain client in permissive mode: %v", err)
	}
}

func TestTLSRequireClientCert(t *testing.T) {
	server, certs := startTLSServer(t, TLSEnforcing, tls.RequireAndVerifyClientCert, 0)
	addr := server.Addr().String()
	if err := echoOnce(t, addr, certs.ClientTLS(false)); err == nil {
		t.Fatal("a client without a certificate was served")
	}
	if err := echoOnce(t, addr, certs.ClientTLS(true)); err != nil {
		t.Fatalf("client with a certificate: %v", err)
	}
}

func TestTLSCertificatesReloaded(t *testing.T) {
	server, certs := startTLSServer(t, TLSEnforcing, tls.NoClientCert, 0)
	fresh, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{fresh.ServerCert: certs.ServerCert, fresh.ServerKey: certs.ServerKey} {
		data, _ := os.ReadFile(from)
		if err := os.WriteFile(to, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(waitLimit)
	for echoOnce(t, server.Addr().String(), fresh.ClientTLS(false)) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the new certificate is not served")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestTLSIdleConnectionClosed(t *testing.T) {
	server, certs := startTLSServer(t, TLSEnforcing, tls.NoClientCert, 200*time.Millisecond)
	conn, err := tls.Dial("tcp", server.Addr().String(), certs.ClientTLS(false))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	_, err = conn.Read(make([]byte, 1))
	var netErr net.Error
	if err == nil || (errors.As(err, &netErr) && netErr.Timeout()) {
		t.Fatalf("idle TLS connection not closed: %v", err)
	}
}

func TestTLSStartRefusesBadCertificates(t *testing.T) {
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", TLS: &TLSOptions{Mode: TLSEnforcing, CertPath: "/nonexistent.pem", KeyPath: "/nonexistent.key"}})
	if err := server.Start(); err == nil {
		t.Fatal("started without certificates")
	}
	certs, _ := testcerts.Write(t.TempDir())
	server = NewServer(ServerConfig{Addr: "127.0.0.1:0", TLS: &TLSOptions{Mode: TLSEnforcing, CertPath: certs.ServerCert, KeyPath: certs.ServerKey,
		ClientAuth: tls.RequireAndVerifyClientCert}})
	if err := server.Start(); err == nil {
		t.Fatal("started asking client certificates without a trust file")
	}
}

// TestTLSShutdownClosesHandshakes: a peer that opened a connection and
// never starts its handshake does not hold up Shutdown.
func TestTLSShutdownClosesHandshakes(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", TLS: &TLSOptions{Mode: TLSPermissive, CertPath: certs.ServerCert, KeyPath: certs.ServerKey}})
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	silent, err := net.Dial("tcp", server.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	time.Sleep(50 * time.Millisecond) // accepted and waiting for its first byte
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := server.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a silent connection: %v", err)
	}
}

// TestTLSBadInputClosesOnlyItsConnection: a frame with an impossible length
// over TLS closes that connection; the server goes on serving.
func TestTLSBadInputClosesOnlyItsConnection(t *testing.T) {
	server, certs := startTLSServer(t, TLSPermissive, tls.NoClientCert, 0)
	conn, err := tls.Dial("tcp", server.Addr().String(), certs.ClientTLS(false))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte{0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	_, err = conn.Read(make([]byte, 1))
	var netErr net.Error
	if err == nil || (errors.As(err, &netErr) && netErr.Timeout()) {
		t.Fatalf("bad frame over TLS: connection not closed (%v)", err)
	}
	if err := echoOnce(t, server.Addr().String(), certs.ClientTLS(false)); err != nil {
		t.Fatalf("served no more after bad input: %v", err)
	}
	if err := echoOnce(t, server.Addr().String(), nil); err != nil {
		t.Fatalf("plain client after bad input: %v", err)
	}
}
