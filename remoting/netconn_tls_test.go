package remoting

import (
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"

	"github.com/gonamesrv/gonamesrv/internal/tlscork"
)

// tlsPair is a TLS connection over loopback TCP, the server side over a
// tlscork.Conn over a countingConn, the client side over one of its own
// (clientCork); handshake done.
func tlsPair(t *testing.T) (server *tls.Conn, counted *testcerts.CountingConn, client *tls.Conn, clientCork *tlscork.Conn) {
	t.Helper()
	server, client, err := testcerts.LoopbackPair(t.TempDir(), func(c net.Conn) net.Conn {
		counted = &testcerts.CountingConn{Conn: c}
		return &tlscork.Conn{Conn: counted}
	}, func(c net.Conn) net.Conn {
		clientCork = &tlscork.Conn{Conn: c}
		return clientCork
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close(); _ = server.Close() })
	return server, counted, client, clientCork
}

// sendRecords writes n TLS records of record from the client in one TCP write.
func sendRecords(t *testing.T, client *tls.Conn, cork *tlscork.Conn, record []byte, n int) {
	t.Helper()
	cork.Cork()
	for range n {
		if _, err := client.Write(record); err != nil {
			t.Fatal(err)
		}
	}
	if err := cork.Uncork(); err != nil {
		t.Fatal(err)
	}
}

// TestCorkedAnswersGoOutInOneWrite: 100 KB of answers, seven TLS records,
// reach the socket in one write through netConn's corked path, and in
// seven without it; the client reads every byte either way.
func TestCorkedAnswersGoOutInOneWrite(t *testing.T) {
	server, counted, client, _ := tlsPair(t)
	nc := newNetConn(server)
	if nc.cork == nil {
		t.Fatal("no tlscork.Conn found under the TLS connection")
	}
	answers := bytes.Repeat([]byte("0123456789abcdef"), 100<<10/16)
	for _, corked := range []bool{true, false} {
		before := counted.Writes.Load()
		got := make(chan []byte, 1)
		go func() {
			buf := make([]byte, len(answers))
			_, _ = io.ReadFull(client, buf)
			got <- buf
		}()
		var err error
		if corked {
			_, err = nc.Write(answers) // past tlscork.RecordPlaintext: corked
		} else {
			nc.writeMu.Lock()
			_, err = nc.writePieces([][]byte{answers})
			nc.writeMu.Unlock()
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(<-got, answers) {
			t.Fatalf("corked=%v: the client read other bytes", corked)
		}
		writes := counted.Writes.Load() - before
		if corked && writes != 1 || !corked && writes < 7 {
			t.Errorf("corked=%v: %d socket writes for %d bytes", corked, writes, len(answers))
		}
	}
}

// TestFillReadyTakesTheRecordsTheTLSLayerHolds: five requests sent as five
// TLS records in one TCP write are all buffered by fill and fillReady, where
// fill alone takes one record; the connection reads on afterwards.
func TestFillReadyTakesTheRecordsTheTLSLayerHolds(t *testing.T) {
	for _, ready := range []bool{false, true} {
		server, _, client, cork := tlsPair(t)
		nc := newNetConn(server)
		record := []byte("request-of-twenty-b!")
		sendRecords(t, client, cork, record, 5)
		if err := nc.fill(); err != nil {
			t.Fatal(err)
		}
		if ready {
			if err := nc.fillReady(); err != nil {
				t.Fatal(err)
			}
		}
		want := len(record)
		if ready {
			want = 5 * len(record)
		}
		if nc.InboundBuffered() != want {
			t.Errorf("fillReady=%v: %d bytes buffered, want %d", ready, nc.InboundBuffered(), want)
		}
		// no deadline left behind: a blocking read still waits for the next record
		_, _ = nc.Discard(nc.InboundBuffered())
		sendRecords(t, client, cork, record, 1)
		for nc.InboundBuffered() < len(record) {
			if err := nc.fill(); err != nil {
				t.Fatalf("fillReady=%v: read after: %v", ready, err)
			}
		}
	}
}
