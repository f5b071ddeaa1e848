package testcerts

import (
	"io"
	"net"
	"testing"
)

// TestLoopbackPairCarriesBytesThroughTheWrappers: both wrappers see their
// side's TCP connection, and the handshaken pair carries bytes both ways.
func TestLoopbackPairCarriesBytesThroughTheWrappers(t *testing.T) {
	var wrapped int
	wrap := func(c net.Conn) net.Conn { wrapped++; return c }
	server, client, err := LoopbackPair(t.TempDir(), wrap, wrap)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer server.Close()
	if wrapped != 2 {
		t.Fatalf("%d wrappers called, want 2", wrapped)
	}
	go func() { _, _ = client.Write([]byte("ping")) }()
	buf := make([]byte, 4)
	if _, err := io.ReadFull(server, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("server read %q %v", buf, err)
	}
	go func() { _, _ = server.Write([]byte("pong")) }()
	if _, err := io.ReadFull(client, buf); err != nil || string(buf) != "pong" {
		t.Fatalf("client read %q %v", buf, err)
	}
}
