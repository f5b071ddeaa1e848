package tlscork

import (
	"bytes"
	"io"
	"net"
	"runtime"
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

// TestCloseIsNotHeldBehindABlockedBatch: a peer that stops reading, with
// small socket buffers, blocks the one write of a corked batch (200 KiB,
// under maxCorked: it goes out at Uncork); closing the TLS connection from
// another goroutine, which writes a close alert, returns and fails the
// write. It takes crypto/tls's 5 s bound on the alert (the deadline it sets
// before writing it also ends the blocked batch).
func TestCloseIsNotHeldBehindABlockedBatch(t *testing.T) {
	var counted *testcerts.CountingConn
	server, client, err := testcerts.LoopbackPair(t.TempDir(), func(c net.Conn) net.Conn {
		_ = c.(*net.TCPConn).SetWriteBuffer(4096)
		counted = &testcerts.CountingConn{Conn: c}
		return &Conn{Conn: counted}
	}, func(c net.Conn) net.Conn {
		_ = c.(*net.TCPConn).SetReadBuffer(4096)
		return c
	})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close() // never read: the socket buffers fill
	before := counted.Writes.Load()
	written := make(chan error, 1)
	go func() {
		_, err := WriteCorked(server, Of(server), make([]byte, 200<<10))
		written <- err
	}()
	for counted.Writes.Load() == before { // the batch's one write has begun
		runtime.Gosched()
	}
	_ = server.Close() // returns: a hang here fails the test by its timeout
	if err := <-written; err == nil {
		t.Fatal("the blocked batch reported success after Close")
	}
}
