package remoting

import (
	"io"
	"net"
	"testing"
)

// TestNetConnBuffer: the gnet.Conn view of a net.Conn buffers what was read
// and hands it out as gnet does.
func TestNetConnBuffer(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	nc := newNetConn(server)
	defer nc.Close()
	go func() { _, _ = client.Write([]byte("hello world")) }()
	if err := nc.fill(); err != nil {
		t.Fatal(err)
	}
	if nc.InboundBuffered() != 11 {
		t.Fatalf("buffered %d", nc.InboundBuffered())
	}
	if b, err := nc.Peek(20); err != io.ErrShortBuffer || len(b) != 11 {
		t.Fatalf("short peek: %q %v", b, err)
	}
	if b, _ := nc.Next(6); string(b) != "hello " {
		t.Fatalf("next %q", b)
	}
	into := make([]byte, 3)
	if n, _ := nc.Read(into); n != 3 || string(into) != "wor" {
		t.Fatalf("read %q", into[:n])
	}
	if n, _ := nc.Discard(10); n != 2 || nc.InboundBuffered() != 0 {
		t.Fatalf("discard %d, left %d", n, nc.InboundBuffered())
	}
	if nc.Fd() != -1 || nc.OutboundBuffered() != 0 || nc.Flush() != nil || nc.SetNoDelay(true) == nil {
		t.Fatal("socket view wrong")
	}
	done := make(chan []byte)
	go func() {
		buf := make([]byte, 4)
		_, _ = io.ReadFull(client, buf)
		done <- buf
	}()
	if _, err := nc.Writev([][]byte{[]byte("ab"), []byte("cd")}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; string(got) != "abcd" {
		t.Fatalf("writev sent %q", got)
	}
	if err := nc.CloseWithCallback(nil); err != nil || nc.AsyncWrite([]byte("x"), nil) == nil {
		t.Fatal("closed connection still writes")
	}
}
