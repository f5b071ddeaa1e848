package remoting

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// TestClientTLSVerifiesTheDialledHost: a client with Java's trust key alone
// (no ServerName of its own) verifies the server for the host it dialled,
// by IP or by name, sends its certificate to a server that requires one,
// and refuses a server its CAs did not sign.
func TestClientTLSVerifiesTheDialledHost(t *testing.T) {
	server, certs := startTLSServer(t, TLSEnforcing, tls.RequireAndVerifyClientCert, 0)
	_, port, _ := net.SplitHostPort(server.Addr().String())
	trusting, err := ClientTLS(certs.ClientCert, certs.ClientKey, certs.CACert)
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"127.0.0.1", "localhost"} {
		if err := echoOnce(t, net.JoinHostPort(host, port), trusting); err != nil {
			t.Fatalf("verifying client to %s: %v", host, err)
		}
	}
	if trusting.ServerName != "" {
		t.Fatal("the caller's configuration was changed")
	}
	other, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wrongCA, err := ClientTLS(certs.ClientCert, certs.ClientKey, other.CACert)
	if err != nil {
		t.Fatal(err)
	}
	err = echoOnce(t, server.Addr().String(), wrongCA)
	var verify *tls.CertificateVerificationError
	if !errors.As(err, &verify) || !strings.Contains(err.Error(), "tls.client.trustCertPath") {
		t.Fatalf("client trusting another CA: %v, want a verification error naming tls.client.trustCertPath", err)
	}
}

// TestPlainClientToldTLSIsRequired: a client without TLS against a server
// that enforces it is told to turn TLS on, not only that the peer closed.
func TestPlainClientToldTLSIsRequired(t *testing.T) {
	server, _ := startTLSServer(t, TLSEnforcing, tls.NoClientCert, 0)
	client := NewClient(server.Addr().String(), ClientConfig{RequestTimeout: 5 * time.Second})
	defer client.Close()
	_, err := client.Invoke(context.Background(), NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "hi"}, nil))
	if !errors.Is(err, ErrTLSRequired) || !errors.Is(err, ErrConnectionClosed) || !strings.Contains(err.Error(), "-tls") {
		t.Fatalf("plain client to an enforcing server: %v, want ErrTLSRequired", err)
	}
}

// TestServerNamedKeepsTheCallersName: the dialled host is only a default.
func TestServerNamedKeepsTheCallersName(t *testing.T) {
	if got := serverNamed(nil, "127.0.0.1:1"); got != nil {
		t.Fatalf("serverNamed(nil) = %v", got)
	}
	named := serverNamed(&tls.Config{ServerName: "ns1"}, "127.0.0.1:1")
	if named.ServerName != "ns1" {
		t.Fatalf("a ServerName of the caller's was replaced: %q", named.ServerName)
	}
}

// TestTLSClientToPlainServerIsToldWhy: the reverse mistake says so too.
func TestTLSClientToPlainServerIsToldWhy(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	_, certs := startTLSServer(t, TLSEnforcing, tls.NoClientCert, 0)
	trusting, err := ClientTLS("", "", certs.CACert)
	if err != nil {
		t.Fatal(err)
	}
	err = echoOnce(t, server.Addr().String(), trusting)
	if err == nil || !strings.Contains(err.Error(), "does the server speak TLS") {
		t.Fatalf("TLS client to a plain server: %v", err)
	}
}
