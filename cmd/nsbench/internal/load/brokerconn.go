package load

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// maxAnswerFrame bounds an answer frame a broker connection accepts.
const maxAnswerFrame = 16 << 20

// Invoker sends a request and waits for its answer: a remoting.Client, or a
// BrokerConn.
type Invoker interface {
	Invoke(ctx context.Context, req *remoting.Command) (*remoting.Command, error)
	Close() error
}

// BrokerConn is one broker's connection, one request at a time, that writes
// a request's body straight from the caller's slice (one writev with the
// header) instead of copying it into a new frame. A 10,000-topic
// registration body is 2 MB: copying and collecting it on every
// registration would make the load generator, which shares the cores with
// the server, the bottleneck of every registration benchmark.
type BrokerConn struct {
	mu         sync.Mutex // one request at a time
	conn       net.Conn
	reader     *bufio.Reader
	header     []byte
	nextOpaque int32
}

// DialBroker opens a broker connection.
func DialBroker(ctx context.Context, addr string) (*BrokerConn, error) {
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("broker connection to %s: %w", addr, err)
	}
	return &BrokerConn{conn: conn, reader: bufio.NewReaderSize(conn, 64<<10)}, nil
}

// DialBrokers opens n broker connections.
func DialBrokers(ctx context.Context, addr string, n int) ([]Invoker, error) {
	conns := make([]Invoker, n)
	err := forEach(n, 16, func(i int) error {
		conn, err := DialBroker(ctx, addr)
		if err != nil {
			return err // a nil *BrokerConn in conns would not be nil for CloseAll
		}
		conns[i] = conn
		return nil
	})
	if err != nil {
		CloseAll(conns)
		return nil, err
	}
	return conns, nil
}

// Invoke writes req (its Opaque and Flag are set here) and returns the
// answer with the same opaque, skipping requests the server pushes. ctx's
// deadline, or requestTimeout, bounds the whole exchange; a failure leaves
// the stream in an unknown state, so the connection is closed.
func (b *BrokerConn) Invoke(ctx context.Context, req *remoting.Command) (*remoting.Command, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.nextOpaque++
	req.Opaque, req.Flag = b.nextOpaque, 0
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(requestTimeout)
	}
	_ = b.conn.SetDeadline(deadline)
	resp, err := b.exchange(req)
	if err != nil {
		_ = b.conn.Close()
		return nil, fmt.Errorf("broker request %s: %w: %w", remoting.RequestCodeName(req.Code), remoting.ErrConnectionClosed, err)
	}
	return resp, nil
}

func (b *BrokerConn) exchange(req *remoting.Command) (*remoting.Command, error) {
	body := req.Body
	withoutBody := *req
	withoutBody.Body = nil
	header, err := remoting.AppendFrame(b.header[:0], &withoutBody)
	if err != nil {
		return nil, err
	}
	b.header = header
	// The length field counts the body that follows in the same writev.
	binary.BigEndian.PutUint32(header, uint32(len(header)-4+len(body)))
	buffers := net.Buffers{header, body}
	if _, err := buffers.WriteTo(b.conn); err != nil {
		return nil, fmt.Errorf("write: %w", err)
	}
	for {
		answer, err := readAnswer(b.reader)
		if err != nil {
			return nil, err
		}
		if answer.IsResponse() && answer.Opaque == req.Opaque {
			return answer, nil
		}
	}
}

// readAnswer reads one whole frame, at most maxAnswerFrame long, and decodes it.
func readAnswer(reader *bufio.Reader) (*remoting.Command, error) {
	var lengthField [4]byte
	if _, err := io.ReadFull(reader, lengthField[:]); err != nil {
		return nil, fmt.Errorf("read answer length: %w", err)
	}
	length := binary.BigEndian.Uint32(lengthField[:])
	if length > maxAnswerFrame {
		return nil, fmt.Errorf("answer of %d bytes: %w", length, ErrBadAnswer)
	}
	frame := make([]byte, length)
	if _, err := io.ReadFull(reader, frame); err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	answer, err := remoting.DecodeFrame(frame)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadAnswer, err)
	}
	return answer, nil
}

// Close closes the connection; the server then unregisters the broker.
func (b *BrokerConn) Close() error { return b.conn.Close() }
