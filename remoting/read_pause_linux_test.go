//go:build linux && !poll_opt

package remoting

import (
	"testing"
	"time"
)

// TestGnetLayoutIsRecognised: the gnet that go.mod pins shows the socket
// and epoll descriptors where read_pause_linux.go looks for them; an
// upgrade that moves them fails here (and connections would then be
// bounded by the hard limit alone).
func TestGnetLayoutIsRecognised(t *testing.T) {
	server := startServer(t, ServerConfig{NumEventLoops: 1}, nil)
	dialRaw(t, server)
	deadline := time.Now().Add(waitLimit)
	var conn *Conn
	for conn == nil {
		if time.Now().After(deadline) {
			t.Fatal("the connection never opened")
		}
		server.conns.Range(func(_, value any) bool { conn = value.(*Conn); return false })
		time.Sleep(time.Millisecond)
	}
	socket, epoll, ok := epollFds(conn.gnetConn)
	if !ok || socket != conn.gnetConn.Fd() || epoll <= 0 || epoll == socket {
		t.Fatalf("epollFds: socket %d (gnet says %d), epoll %d, ok %v", socket, conn.gnetConn.Fd(), epoll, ok)
	}
}
