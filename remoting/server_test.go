package remoting

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// waitLimit bounds every wait in these tests so a bug fails instead of
// hanging; it is never an assertion about speed.
const waitLimit = 10 * time.Second

func startServer(t testing.TB, cfg ServerConfig, setup func(*Server)) *Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Logger == nil {
		cfg.Logger = testlog.Discard()
	}
	server := NewServer(cfg)
	if setup != nil {
		setup(server)
	}
	if err := server.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := server.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return server
}

// rawConn is a plain TCP peer that writes bytes and reads frames.
type rawConn struct {
	t      testing.TB
	conn   net.Conn
	reader *bufio.Reader
}

func dialRaw(t testing.TB, server *Server) *rawConn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawConn{t: t, conn: conn, reader: bufio.NewReader(conn)}
}

func (r *rawConn) write(data []byte) {
	r.t.Helper()
	if _, err := r.conn.Write(data); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

func (r *rawConn) send(cmd *Command) {
	r.t.Helper()
	r.write(mustEncode(r.t, cmd))
}

// readFrameBytes returns the next whole frame, length field included.
func (r *rawConn) readFrameBytes() []byte {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(waitLimit))
	var prefix [4]byte
	if _, err := io.ReadFull(r.reader, prefix[:]); err != nil {
		r.t.Fatalf("read length: %v", err)
	}
	frame := make([]byte, 4+binary.BigEndian.Uint32(prefix[:]))
	copy(frame, prefix[:])
	if _, err := io.ReadFull(r.reader, frame[4:]); err != nil {
		r.t.Fatalf("read frame: %v", err)
	}
	return frame
}

func (r *rawConn) read() *Command {
	r.t.Helper()
	return mustDecodeFrame(r.t, r.readFrameBytes())
}

// expectClosed asserts the server closes the connection without sending a byte.
func (r *rawConn) expectClosed() {
	r.t.Helper()
	_ = r.conn.SetReadDeadline(time.Now().Add(waitLimit))
	data, err := io.ReadAll(r.reader)
	if len(data) != 0 {
		r.t.Fatalf("got %d bytes (% x) before close, want none", len(data), data)
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		r.t.Fatal("connection was not closed")
	}
}

func echoHandler(conn *Conn, req *Command) *Command {
	resp := NewResponse(req, SUCCESS, req.ExtFields["echo"])
	resp.Body = req.Body
	return resp
}

// javaLikeServer answers the recorded exchanges the way Java 5.3.3 did.
func javaLikeServer(t testing.TB) *Server {
	route := loadExchange(t, "010-route-topictest-v479")
	routeBody := mustDecodeFrame(t, route.responseFrame(t)).Body
	return startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = routeBody
			return resp
		})
		s.Handle(GET_KV_CONFIG, func(_ *Conn, req *Command) *Command {
			if req.ExtFields["key"] == "k2" {
				resp := NewResponse(req, SUCCESS, "")
				resp.SetExt("value", "größe=√2 名前")
				return resp
			}
			resp := NewResponse(req, QUERY_NOT_FOUND, "No config item, Namespace: capture-ns Key: "+req.ExtFields["key"])
			resp.ExtFields = map[string]string{}
			return resp
		})
		s.Handle(WIPE_WRITE_PERM_OF_BROKER, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.ExtFields = EncodeHeader(struct {
				Count int `rmq:"wipeTopicCount"`
			}{6})
			return resp
		})
	})
}

func TestServerAnswersLikeJava(t *testing.T) {
	server := javaLikeServer(t)
	peer := dialRaw(t, server)
	for _, name := range []string{
		"085-unknown-request-code", "039-get-kv-missing-key", "038-get-kv-k2-utf8",
		"048-wipe-write-perm-broker-a", "010-route-topictest-v479",
	} {
		exchange := loadExchange(t, name)
		peer.write(exchange.requestFrame(t))
		if got, want := peer.readFrameBytes(), exchange.responseFrame(t); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
}

// Quirk Q6, fixed on purpose: a ROCKETMQ request is answered in ROCKETMQ,
// with the same content Java sent in JSON.
func TestServerAnswersInRequestSerialization(t *testing.T) {
	server := javaLikeServer(t)
	peer := dialRaw(t, server)
	exchange := loadExchange(t, "087-route-topictest-rocketmq-header")
	peer.write(exchange.requestFrame(t))
	got := peer.read()
	want := mustDecodeFrame(t, exchange.responseFrame(t))
	want.SerializeType = ROCKETMQ
	// javaLikeServer answers every route query with the body of fixture 010
	// (the state at 087 differs); the header is what this test is about.
	route := loadExchange(t, "010-route-topictest-v479")
	want.Body = mustDecodeFrame(t, route.responseFrame(t)).Body
	if !sameCommand(got, want) {
		t.Fatalf("got %+v\nwant %+v", *got, *want)
	}
}

func TestServerBoundAddress(t *testing.T) {
	server := startServer(t, ServerConfig{}, nil)
	addr, ok := server.Addr().(*net.TCPAddr)
	if !ok || addr.Port == 0 || !addr.IP.IsLoopback() {
		t.Fatalf("Addr() = %v", server.Addr())
	}
	second := NewServer(ServerConfig{Addr: addr.String(), Logger: testlog.Discard()})
	if err := second.Start(); err == nil {
		t.Fatal("a second server bound the same port")
	}
}

func TestServerSplitFramesOneByteAtATime(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	peer := dialRaw(t, server)
	req := NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "split"}, []byte("payload"))
	req.Opaque = 77
	for _, b := range mustEncode(t, req) {
		peer.write([]byte{b})
	}
	resp := peer.read()
	if resp.Opaque != 77 || resp.Remark != "split" || string(resp.Body) != "payload" || !resp.IsResponse() {
		t.Fatalf("response %+v", *resp)
	}
}

func TestServerPipelinedFramesInOneWrite(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	peer := dialRaw(t, server)
	const count = 200
	var batch []byte
	for i := range count {
		req := NewRequest(PUT_KV_CONFIG, map[string]string{"echo": strconv.Itoa(i)}, nil)
		req.Opaque = int32(i)
		if i%2 == 1 {
			req.SerializeType = ROCKETMQ
		}
		var err error
		if batch, err = AppendFrame(batch, req); err != nil {
			t.Fatal(err)
		}
	}
	peer.write(batch)
	for i := range count {
		resp := peer.read()
		if resp.Opaque != int32(i) || resp.Remark != strconv.Itoa(i) {
			t.Fatalf("response %d: %+v", i, *resp)
		}
		if wantType := SerializeType(i % 2); resp.SerializeType != wantType {
			t.Fatalf("response %d in %s, want %s", i, resp.SerializeType, wantType)
		}
	}
}

func TestServerNeverAnswersOneway(t *testing.T) {
	handled := make(chan int32, 4)
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(BROKER_HEARTBEAT, func(_ *Conn, req *Command) *Command {
			handled <- req.Opaque
			return NewResponse(req, SUCCESS, "")
		})
		s.Handle(GET_KV_CONFIG, func(_ *Conn, req *Command) *Command { panic("boom") })
		s.Handle(PUT_KV_CONFIG, echoHandler)
	})
	peer := dialRaw(t, server)
	peer.write(loadExchange(t, "061-broker-heartbeat-broker-a-oneway").requestFrame(t))
	for _, code := range []int32{99999, GET_KV_CONFIG} { // unknown code, panicking handler
		oneway := NewRequest(code, nil, nil)
		oneway.MarkOneway()
		peer.send(oneway)
	}
	// A response frame arriving at the server matches nothing and is dropped.
	stray := NewRequest(SUCCESS, nil, nil)
	stray.MarkResponse()
	peer.send(stray)
	last := NewRequest(PUT_KV_CONFIG, map[string]string{"echo": "after"}, nil)
	last.Opaque = 1000
	peer.send(last)
	if resp := peer.read(); resp.Opaque != 1000 || resp.Remark != "after" {
		t.Fatalf("first answer is %+v, want the one for opaque 1000", *resp)
	}
	if opaque := <-handled; opaque != 61 {
		t.Fatalf("one-way heartbeat handled with opaque %d", opaque)
	}
}

func TestServerUnknownCodeAndPanic(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(GET_KV_CONFIG, func(_ *Conn, req *Command) *Command { panic("boom") })
	})
	peer := dialRaw(t, server)
	peer.send(&Command{Code: 99999, Opaque: 1})
	if resp := peer.read(); resp.Code != REQUEST_CODE_NOT_SUPPORTED || resp.Remark != " request type 99999 not supported" || resp.ExtFields != nil {
		t.Fatalf("unknown code answer %+v", *resp)
	}
	peer.send(&Command{Code: GET_KV_CONFIG, Opaque: 2})
	if resp := peer.read(); resp.Code != SYSTEM_ERROR || resp.Opaque != 2 || resp.Remark == "" {
		t.Fatalf("panic answer %+v", *resp)
	}
	peer.send(&Command{Code: 7, Opaque: 3})
	if resp := peer.read(); resp.Code != REQUEST_CODE_NOT_SUPPORTED || resp.Opaque != 3 {
		t.Fatalf("server did not go on after a panic: %+v", *resp)
	}
}

func TestServerDefaultHandler(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.HandleDefault(func(_ *Conn, req *Command) *Command {
			return NewResponse(req, SUCCESS, "default "+strconv.Itoa(int(req.Code)))
		})
	})
	peer := dialRaw(t, server)
	peer.send(&Command{Code: 4242})
	if resp := peer.read(); resp.Code != SUCCESS || resp.Remark != "default 4242" {
		t.Fatalf("answer %+v", *resp)
	}
}

// blockingHandler is a Slow() handler that reports when it starts and waits
// until released.
type blockingHandler struct {
	started chan int32
	release chan struct{}
}

func newBlockingHandler() *blockingHandler {
	return &blockingHandler{started: make(chan int32, 16), release: make(chan struct{})}
}

func (b *blockingHandler) handle(_ *Conn, req *Command) *Command {
	b.started <- req.Opaque
	<-b.release
	return NewResponse(req, SUCCESS, "slow done")
}

func TestServerSlowHandlerAndOverload(t *testing.T) {
	blocking := newBlockingHandler()
	server := startServer(t, ServerConfig{SlowWorkers: 1, SlowQueue: 1}, func(s *Server) {
		s.Handle(REGISTER_BROKER, blocking.handle, Slow())
		s.Handle(PUT_KV_CONFIG, echoHandler)
	})
	peer := dialRaw(t, server)
	peer.send(&Command{Code: REGISTER_BROKER, Opaque: 1})
	if opaque := <-blocking.started; opaque != 1 {
		t.Fatalf("started %d", opaque)
	}
	peer.send(&Command{Code: REGISTER_BROKER, Opaque: 2}) // waits in the queue
	peer.send(&Command{Code: REGISTER_BROKER, Opaque: 3}) // queue full
	busy := peer.read()
	if busy.Opaque != 3 || busy.Code != SYSTEM_BUSY || busy.Remark != "[OVERLOAD]system busy, start flow control for a while" {
		t.Fatalf("overload answer %+v", *busy)
	}
	// The event loop is not blocked by the slow handler.
	peer.send(&Command{Code: PUT_KV_CONFIG, Opaque: 4, ExtFields: map[string]string{"echo": "fast"}})
	if fast := peer.read(); fast.Opaque != 4 || fast.Remark != "fast" {
		t.Fatalf("fast answer %+v", *fast)
	}
	close(blocking.release)
	seen := map[int32]bool{}
	for range 2 {
		resp := peer.read()
		if resp.Code != SUCCESS || resp.Remark != "slow done" {
			t.Fatalf("slow answer %+v", *resp)
		}
		seen[resp.Opaque] = true
	}
	if !seen[1] || !seen[2] {
		t.Fatalf("slow answers for %v", seen)
	}
}

func TestServerIdleCloseFiresListenerWithConnID(t *testing.T) {
	seenID := make(chan uint64, 1)
	closedID := make(chan uint64, 4)
	server := startServer(t, ServerConfig{IdleTimeout: 200 * time.Millisecond}, func(s *Server) {
		s.Handle(PUT_KV_CONFIG, func(conn *Conn, req *Command) *Command {
			seenID <- conn.ID()
			return nil // no response
		})
		s.OnClose(func(conn *Conn) { closedID <- conn.ID() })
	})
	peer := dialRaw(t, server)
	peer.send(&Command{Code: PUT_KV_CONFIG})
	id := <-seenID
	peer.expectClosed()
	select {
	case got := <-closedID:
		if got != id {
			t.Fatalf("close listener got conn %d, handler saw %d", got, id)
		}
	case <-time.After(waitLimit):
		t.Fatal("close listener not called")
	}
}

func TestServerCloseListenerOncePerConnection(t *testing.T) {
	handled := make(chan *Conn, 8)
	closed := make(chan *Conn, 8)
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(PUT_KV_CONFIG, func(conn *Conn, req *Command) *Command {
			conn.SetContext("broker-a")
			handled <- conn
			return NewResponse(req, SUCCESS, "")
		})
		s.OnClose(func(conn *Conn) { closed <- conn })
	})
	var ids []uint64
	for range 2 {
		peer := dialRaw(t, server)
		peer.send(&Command{Code: PUT_KV_CONFIG})
		if resp := peer.read(); resp.Code != SUCCESS {
			t.Fatalf("answer %+v", *resp)
		}
		conn := <-handled
		if conn.LocalAddr() != server.Addr().String() || conn.RemoteAddr() != peer.conn.LocalAddr().String() {
			t.Fatalf("conn addresses local %s remote %s", conn.LocalAddr(), conn.RemoteAddr())
		}
		ids = append(ids, conn.ID())
		peer.conn.Close()
		select {
		case got := <-closed:
			if got.ID() != conn.ID() || got.Context() != "broker-a" {
				t.Fatalf("closed conn %d ctx %v, want %d", got.ID(), got.Context(), conn.ID())
			}
		case <-time.After(waitLimit):
			t.Fatal("close listener not called")
		}
	}
	if ids[0] == ids[1] {
		t.Fatalf("connection IDs reused: %v", ids)
	}
	select {
	case extra := <-closed:
		t.Fatalf("listener called again for %d", extra.ID())
	default:
	}
}

func TestServerBadInputClosesOnlyThatConnection(t *testing.T) {
	server := startServer(t, ServerConfig{MaxFrameSize: 1 << 20}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	jsonFrame := func(header string) []byte {
		frame := lengthPrefix(uint32(4+len(header)), uint32(len(header)))
		return append(frame, header...)
	}
	cases := map[string][]byte{
		"length over max":             lengthPrefix(1<<20 - 3),
		"negative length":             {0xff, 0xff, 0xff, 0xff},
		"length below 4":              lengthPrefix(2, 0),
		"header beyond frame":         lengthPrefix(8, 100, 0),
		"unknown serialize type":      lengthPrefix(8, 3<<24|4, 0),
		"undecodable json header":     jsonFrame(`{"code":`),
		"json null header":            jsonFrame(`null`),
		"binary lengths beyond frame": append(lengthPrefix(25, 1<<24|21), make([]byte, 13)...),
		"http garbage":                []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
	}
	cases["binary lengths beyond frame"] = append(cases["binary lengths beyond frame"], 0, 0, 1, 0, 0, 0, 0, 0)
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			bad := dialRaw(t, server)
			bad.write(input)
			bad.expectClosed()
			good := dialRaw(t, server)
			good.send(&Command{Code: PUT_KV_CONFIG, Opaque: 9, ExtFields: map[string]string{"echo": "ok"}})
			if resp := good.read(); resp.Opaque != 9 || resp.Remark != "ok" {
				t.Fatalf("other connection answer %+v", *resp)
			}
		})
	}
}

// Good frames before the bad one in the same packet are still answered.
func TestServerAnswersFramesBeforeBadInput(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	peer := dialRaw(t, server)
	batch := mustEncode(t, &Command{Code: PUT_KV_CONFIG, Opaque: 1})
	peer.write(append(batch, 0xff, 0xff, 0xff, 0xff))
	if resp := peer.read(); resp.Opaque != 1 {
		t.Fatalf("answer %+v", *resp)
	}
	peer.expectClosed()
}

func TestServerSlowSenderHoldsOnlyItsConnection(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	slow := dialRaw(t, server)
	frame := mustEncode(t, &Command{Code: PUT_KV_CONFIG, Opaque: 1, ExtFields: map[string]string{"echo": "slow"}})
	slow.write(frame[:6])
	fast := dialRaw(t, server)
	for i := range 5 {
		fast.send(&Command{Code: PUT_KV_CONFIG, Opaque: int32(10 + i)})
		if resp := fast.read(); resp.Opaque != int32(10+i) {
			t.Fatalf("fast answer %+v", *resp)
		}
	}
	slow.write(frame[6:])
	if resp := slow.read(); resp.Opaque != 1 || resp.Remark != "slow" {
		t.Fatalf("slow answer %+v", *resp)
	}
}

func TestServerGracefulShutdownFinishesSlowWork(t *testing.T) {
	blocking := newBlockingHandler()
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	server.Handle(REGISTER_BROKER, blocking.handle, Slow())
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	peer := dialRaw(t, server)
	peer.send(&Command{Code: REGISTER_BROKER, Opaque: 5})
	<-blocking.started
	shutdownDone := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		shutdownDone <- server.Shutdown(ctx)
	}()
	close(blocking.release)
	if resp := peer.read(); resp.Opaque != 5 || resp.Remark != "slow done" {
		t.Fatalf("in-flight answer %+v", *resp)
	}
	if err := <-shutdownDone; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	peer.expectClosed()
	if conn, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit); err == nil {
		conn.Close()
		t.Fatal("server still accepts connections after Shutdown")
	}
	if err := server.Start(); !errors.Is(err, ErrServerClosed) {
		t.Fatalf("restart: %v", err)
	}
}

func TestServerShutdownDeadline(t *testing.T) {
	blocking := newBlockingHandler()
	defer close(blocking.release)
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	server.Handle(REGISTER_BROKER, blocking.handle, Slow())
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	peer := dialRaw(t, server)
	peer.send(&Command{Code: REGISTER_BROKER})
	<-blocking.started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := server.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("shutdown with a stuck handler: %v", err)
	}
}

func TestServerSendPushesToClient(t *testing.T) {
	pushed := make(chan *Command, 1)
	var serverConn *Conn
	var mu sync.Mutex
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(PUT_KV_CONFIG, func(conn *Conn, req *Command) *Command {
			mu.Lock()
			serverConn = conn
			mu.Unlock()
			return NewResponse(req, SUCCESS, "")
		})
	})
	client := NewClient(server.Addr().String(), ClientConfig{Logger: testlog.Discard(), OnRequest: func(req *Command) *Command {
		pushed <- req
		return nil
	}})
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := client.Invoke(ctx, NewRequest(PUT_KV_CONFIG, nil, nil)); err != nil {
		t.Fatal(err)
	}
	notify := NewRequest(NOTIFY_MIN_BROKER_ID_CHANGE, map[string]string{"minBrokerId": "0"}, nil)
	notify.MarkOneway()
	mu.Lock()
	conn := serverConn
	mu.Unlock()
	if err := server.Send(conn, notify); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-pushed:
		if got.Code != NOTIFY_MIN_BROKER_ID_CHANGE || !got.IsOneway() || got.ExtFields["minBrokerId"] != "0" {
			t.Fatalf("pushed %+v", *got)
		}
	case <-time.After(waitLimit):
		t.Fatal("push not received")
	}
}

func BenchmarkServerRoundTrip(b *testing.B) {
	server := startServer(b, ServerConfig{}, func(s *Server) { s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler) })
	client := NewClient(server.Addr().String(), ClientConfig{Logger: testlog.Discard()})
	defer client.Close()
	body := typicalRouteResponse().Body
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := client.Invoke(ctx, NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "TopicTest"}, body)); err != nil {
			b.Fatal(err)
		}
	}
}

// A burst of connections (a client's pool, brokers starting together) is
// spread evenly over the event loops. gnet's least-connections balancer
// counted a connection only once its loop had registered it, so a burst
// went to one loop and left the other idle.
func TestServerSpreadsABurstOfConnectionsOverItsEventLoops(t *testing.T) {
	const loops, conns = 2, 16
	server := startServer(t, ServerConfig{Multicore: true, NumEventLoops: loops}, func(s *Server) {
		s.Handle(GET_KV_CONFIG, echoHandler)
	})
	peers := make([]net.Conn, conns)
	var dials sync.WaitGroup
	for i := range peers {
		dials.Go(func() {
			nc, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit)
			if err != nil {
				t.Errorf("dial: %v", err)
				return
			}
			peers[i] = nc
		})
	}
	dials.Wait()
	for _, nc := range peers {
		if nc == nil {
			t.FailNow()
		}
		t.Cleanup(func() { nc.Close() })
		// One round trip each: the connection is then open on its loop.
		peer := &rawConn{t: t, conn: nc, reader: bufio.NewReader(nc)}
		peer.send(NewRequest(GET_KV_CONFIG, nil, nil))
		if resp := peer.read(); resp.Code != SUCCESS {
			t.Fatalf("answer code %d", resp.Code)
		}
	}
	perLoop := map[any]int{}
	server.conns.Range(func(_, value any) bool {
		perLoop[value.(*Conn).gnetConn.EventLoop()]++
		return true
	})
	if len(perLoop) != loops {
		t.Fatalf("%d connections on %d event loop(s), want %d loops: %v", conns, len(perLoop), loops, perLoop)
	}
	for loop, n := range perLoop {
		if n != conns/loops {
			t.Errorf("event loop %p has %d of %d connections, want %d", loop, n, conns, conns/loops)
		}
	}
	// The per-loop counts (the metric's source) say the same, and drop to
	// zero as the connections close.
	if got := server.EventLoopConnections(); !slices.Equal(got, []int64{conns / loops, conns / loops}) {
		t.Fatalf("EventLoopConnections %v, want %d on each of %d loops", got, conns/loops, loops)
	}
	for _, nc := range peers {
		nc.Close()
	}
	deadline := time.Now().Add(waitLimit)
	for got := server.EventLoopConnections(); !slices.Equal(got, []int64{0, 0}); got = server.EventLoopConnections() {
		if time.Now().After(deadline) {
			t.Fatalf("EventLoopConnections %v after every connection closed, want [0 0]", got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
