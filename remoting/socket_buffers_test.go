package remoting

import (
	"strconv"
	"syscall"
	"testing"
)

// TestSocketBuffersAreSetOnAcceptedConnections: the server's side of a
// connection has the configured SO_SNDBUF and SO_RCVBUF (Linux reports twice
// the value set, its bookkeeping included). The sizes differ from the
// kernel's defaults (16 KiB send, 128 KiB receive), so an unset option shows.
func TestSocketBuffersAreSetOnAcceptedConnections(t *testing.T) {
	const send, recv = 96 << 10, 24 << 10
	server := startServer(t, ServerConfig{SocketSendBuffer: send, SocketRecvBuffer: recv}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, func(conn *Conn, req *Command) *Command {
			fd := conn.gnetConn.Fd()
			sndbuf, err1 := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_SNDBUF)
			rcvbuf, err2 := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF)
			if err1 != nil || err2 != nil {
				return NewResponse(req, SYSTEM_ERROR, "getsockopt failed")
			}
			return NewResponse(req, SUCCESS, strconv.Itoa(sndbuf)+","+strconv.Itoa(rcvbuf))
		})
	})
	peer := dialRaw(t, server)
	peer.send(bodyRequest(GET_ROUTEINFO_BY_TOPIC, 1, 0))
	expectAnswer(t, peer, 1, SUCCESS, strconv.Itoa(2*send)+","+strconv.Itoa(2*recv))
}
