package load

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// idleDialParallelism bounds the connections being opened at once.
const idleDialParallelism = 32

// OpenIdle opens n plain TCP connections to addr, sends one route query for
// topic on each and reads its answer, so the server has set each connection
// up fully, then leaves them idle. The caller closes them with CloseConns.
// Plain sockets keep the tool's own cost per connection to one descriptor.
func OpenIdle(ctx context.Context, addr string, n int, topic string) ([]net.Conn, error) {
	frame, err := remoting.Encode(RouteRequest(topic))
	if err != nil {
		return nil, fmt.Errorf("encode idle probe: %w", err)
	}
	conns := make([]net.Conn, n)
	err = forEach(n, idleDialParallelism, func(i int) error {
		var dialer net.Dialer
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("idle connection %d: %w", i, err)
		}
		conns[i] = conn
		if err := roundTrip(conn, frame); err != nil {
			return fmt.Errorf("idle connection %d: %w", i, err)
		}
		return nil
	})
	if err != nil {
		CloseConns(conns)
		return nil, err
	}
	return conns, nil
}

// roundTrip writes one request frame and reads one answer frame.
func roundTrip(conn net.Conn, frame []byte) error {
	_ = conn.SetDeadline(time.Now().Add(requestTimeout))
	defer conn.SetDeadline(time.Time{})
	if _, err := conn.Write(frame); err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	if _, err := readAnswer(bufio.NewReader(conn)); err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	return nil
}

// CloseConns closes every non-nil connection.
func CloseConns(conns []net.Conn) {
	for _, c := range conns {
		if c != nil {
			_ = c.Close()
		}
	}
}
