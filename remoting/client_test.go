package remoting

import (
	"bufio"
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func newTestClient(t testing.TB, server *Server, cfg ClientConfig) *Client {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = testlog.Discard()
	}
	client := NewClient(server.Addr().String(), cfg)
	t.Cleanup(func() { client.Close() })
	return client
}

func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

func TestClientPipelinesConcurrentCalls(t *testing.T) {
	server := startServer(t, ServerConfig{SlowWorkers: 4}, func(s *Server) {
		s.Handle(PUT_KV_CONFIG, echoHandler)
		s.Handle(REGISTER_BROKER, echoHandler, Slow()) // answers may come out of order
	})
	client := newTestClient(t, server, ClientConfig{})
	if client.Addr() != server.Addr().String() {
		t.Fatalf("Addr() = %s", client.Addr())
	}
	ctx := testContext(t)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := int32(PUT_KV_CONFIG)
			if i%2 == 0 {
				code = REGISTER_BROKER
			}
			text := strconv.Itoa(i)
			resp, err := client.Invoke(ctx, NewRequest(code, map[string]string{"echo": text}, []byte(text)))
			if err != nil {
				errs <- err
				return
			}
			if resp.Remark != text || string(resp.Body) != text {
				errs <- errors.New("call " + text + " got the answer " + resp.Remark)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestClientHonoursContextDeadline(t *testing.T) {
	blocking := newBlockingHandler()
	defer close(blocking.release)
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(REGISTER_BROKER, blocking.handle, Slow()) })
	client := newTestClient(t, server, ClientConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-blocking.started
		cancel()
	}()
	if _, err := client.Invoke(ctx, NewRequest(REGISTER_BROKER, nil, nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Invoke = %v, want context.Canceled", err)
	}
}

func TestClientFailsPendingOnBreakThenRedials(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(DELETE_KV_CONFIG, func(conn *Conn, req *Command) *Command {
			conn.Close() // breaks the connection while the call waits
			return nil
		})
		s.Handle(PUT_KV_CONFIG, echoHandler)
	})
	client := newTestClient(t, server, ClientConfig{})
	ctx := testContext(t)
	if _, err := client.Invoke(ctx, NewRequest(DELETE_KV_CONFIG, nil, nil)); !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("pending call = %v, want ErrConnectionClosed", err)
	}
	resp, err := client.Invoke(ctx, NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "again"}, nil))
	if err != nil || resp.Remark != "again" {
		t.Fatalf("call after reconnect = %v, %v", resp, err)
	}
}

func TestClientOnewayAndClose(t *testing.T) {
	got := make(chan *Command, 1)
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(BROKER_HEARTBEAT, func(_ *Conn, req *Command) *Command {
			got <- req
			return NewResponse(req, SUCCESS, "")
		})
	})
	client := newTestClient(t, server, ClientConfig{})
	ctx := testContext(t)
	if err := client.InvokeOneway(ctx, NewRequest(BROKER_HEARTBEAT, map[string]string{"brokerName": "b"}, nil)); err != nil {
		t.Fatal(err)
	}
	if req := <-got; !req.IsOneway() || req.ExtFields["brokerName"] != "b" || req.Language != GO {
		t.Fatalf("server saw %+v", *req)
	}
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Invoke(ctx, NewRequest(BROKER_HEARTBEAT, nil, nil)); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("Invoke after Close = %v", err)
	}
	if err := client.InvokeOneway(ctx, NewRequest(BROKER_HEARTBEAT, nil, nil)); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("InvokeOneway after Close = %v", err)
	}
}

func TestClientCloseFailsPendingCalls(t *testing.T) {
	blocking := newBlockingHandler()
	defer close(blocking.release)
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(REGISTER_BROKER, blocking.handle, Slow()) })
	client := newTestClient(t, server, ClientConfig{})
	result := make(chan error, 1)
	go func() {
		_, err := client.Invoke(testContext(t), NewRequest(REGISTER_BROKER, nil, nil))
		result <- err
	}()
	<-blocking.started
	client.Close()
	if err := <-result; !errors.Is(err, ErrClientClosed) {
		t.Fatalf("pending call after Close = %v", err)
	}
}

func TestClientMaxPending(t *testing.T) {
	blocking := newBlockingHandler()
	defer close(blocking.release)
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(REGISTER_BROKER, blocking.handle, Slow()) })
	client := newTestClient(t, server, ClientConfig{MaxPending: 1})
	go client.Invoke(testContext(t), NewRequest(REGISTER_BROKER, nil, nil)) //nolint:errcheck // ends at cleanup
	<-blocking.started
	if _, err := client.Invoke(testContext(t), NewRequest(REGISTER_BROKER, nil, nil)); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("second call = %v, want ErrTooManyPending", err)
	}
}

func TestClientDialFailure(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := listener.Addr().String()
	listener.Close()
	client := NewClient(addr, ClientConfig{Logger: testlog.Discard()})
	defer client.Close()
	if _, err := client.Invoke(testContext(t), NewRequest(GET_KV_CONFIG, nil, nil)); err == nil {
		t.Fatal("Invoke on a closed port succeeded")
	}
}

// A raw TCP peer plays the server: it pushes a request and reads the
// client's answer, which a Server would drop.
func TestClientAnswersPushedRequest(t *testing.T) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	client := NewClient(listener.Addr().String(), ClientConfig{Logger: testlog.Discard(), OnRequest: func(req *Command) *Command {
		return NewResponse(req, SUCCESS, "pong "+req.ExtFields["n"])
	}})
	defer client.Close()
	answer := make(chan *Command, 1)
	go func() {
		// Answer the client's first call, then push one request and one
		// one-way request; only the first gets an answer.
		conn, err := listener.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		peer := &rawConn{t: t, conn: conn, reader: bufio.NewReader(conn)}
		first := peer.read()
		resp := NewResponse(first, SUCCESS, "")
		resp.MarkResponse()
		oneway := NewRequest(GET_BROKER_RUNTIME_INFO, map[string]string{"n": "0"}, nil)
		oneway.MarkOneway()
		ping := NewRequest(GET_BROKER_RUNTIME_INFO, map[string]string{"n": "1"}, nil)
		ping.Opaque = 5
		var batch []byte
		for _, cmd := range []*Command{resp, oneway, ping} {
			batch, _ = AppendFrame(batch, cmd)
		}
		peer.write(batch)
		answer <- peer.read()
	}()
	if _, err := client.Invoke(testContext(t), NewRequest(PUT_KV_CONFIG, nil, nil)); err != nil {
		t.Fatal(err)
	}
	var got *Command
	select {
	case got = <-answer:
	case <-time.After(waitLimit):
		t.Fatal("the raw peer got no answer")
	}
	if !got.IsResponse() || got.Opaque != 5 || got.Remark != "pong 1" {
		t.Fatalf("client answered %+v", *got)
	}
}
