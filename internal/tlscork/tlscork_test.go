package tlscork

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// TestWriteCorkedSendsTheRecordsWithOneWrite: 100 KB over TLS, seven
// records, reach the socket in one write corked and in seven or more as
// they are; the client reads every byte both ways. Under the passed
// deadline, a read with nothing buffered times out and the connection
// still reads afterwards.
func TestWriteCorkedSendsTheRecordsWithOneWrite(t *testing.T) {
	var counted *testcerts.CountingConn
	var raw net.Conn
	server, client, err := testcerts.LoopbackPair(t.TempDir(), func(c net.Conn) net.Conn {
		counted = &testcerts.CountingConn{Conn: c}
		return &Conn{Conn: counted}
	}, func(c net.Conn) net.Conn { raw = c; return c })
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	defer server.Close()
	cork := Of(server)
	if cork == nil || Of(raw) != nil {
		t.Fatal("Of: no Conn under the TLS connection, or one under a plain one")
	}
	payload := bytes.Repeat([]byte("0123456789abcdef"), 100<<10/16)
	for _, corked := range []bool{true, false} {
		before := counted.Writes.Load()
		got := make(chan []byte, 1)
		go func() {
			buf := make([]byte, len(payload))
			_, _ = io.ReadFull(client, buf)
			got <- buf
		}()
		c := cork
		if !corked {
			c = nil
		}
		if _, err := WriteCorked(server, c, payload); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(<-got, payload) {
			t.Fatalf("corked=%v: the client read other bytes", corked)
		}
		if writes := counted.Writes.Load() - before; corked && writes != 1 || !corked && writes < 7 {
			t.Errorf("corked=%v: %d socket writes", corked, writes)
		}
	}

	if err := server.SetReadDeadline(PastDeadline); err != nil {
		t.Fatal(err)
	}
	if _, err := server.Read(make([]byte, 16)); err == nil || !err.(net.Error).Timeout() {
		t.Fatalf("read under the passed deadline with nothing buffered: %v, want a timeout", err)
	}
	_ = server.SetReadDeadline(time.Time{})
	go func() { _, _ = client.Write([]byte("after")) }()
	buf := make([]byte, 5)
	if _, err := io.ReadFull(server, buf); err != nil || string(buf) != "after" {
		t.Fatalf("read after the timeout: %q %v", buf, err)
	}
}
