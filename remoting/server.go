package remoting

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"github.com/panjf2000/gnet/v2"
	gnetErrors "github.com/panjf2000/gnet/v2/pkg/errors"
	"github.com/sirupsen/logrus"
)

// Handler answers one request. It returns the response built with
// NewResponse, or nil for no response. The server sets the response flag,
// the opaque and the serialize type from the request, and never writes an
// answer to a one-way request.
type Handler func(conn *Conn, req *Command) *Command

// HandleOption changes how a handler is run.
type HandleOption func(*route)

// Slow runs the handler on the bounded worker pool instead of the event
// loop, for work that can take milliseconds (a registration with thousands
// of topics). When the pool's queue is full the request is answered
// SYSTEM_BUSY.
func Slow() HandleOption { return func(r *route) { r.slow = true } }

// SlowIn runs the handler on the named worker pool of ServerConfig.Pools,
// which has its own workers and queue: a flood of requests in one pool
// answers SYSTEM_BUSY there and never delays another's. A name the
// configuration lacks means the default pool.
func SlowIn(pool string) HandleOption {
	return func(r *route) { r.slow, r.pool = true, pool }
}

// TryFirst gives a Slow or SlowIn handler a quick one that the event loop
// tries first. quick answers what it can serve at once (no waiting for a
// lock, no large body decoded, no file written) and returns nil for the
// rest, leaving the request as it found it: those go to the pool as they
// would without it. It is not tried while a request of the same connection
// is on a pool, so that its answer never overtakes the work of an earlier
// request of that connection.
func TryFirst(quick Handler) HandleOption { return func(r *route) { r.quick = quick } }

// route is the dispatch entry of one request code.
type route struct {
	handler Handler
	slow    bool
	pool    string  // "" is the default pool
	quick   Handler // TryFirst's, tried on the event loop before a slow handler; nil: none
}

// dispatchTable is replaced as a whole on every change, so the event loops
// read it without a lock.
type dispatchTable struct {
	byCode   map[int32]route
	fallback *route
}

// Server states, in order.
const (
	stateNew int32 = iota
	stateRunning
	stateDraining
	stateStopped
)

// Server is the RocketMQ remoting server on gnet event loops. Handlers run
// on the event loop unless registered Slow().
type Server struct {
	cfg ServerConfig
	log *logrus.Entry

	tableMu sync.Mutex // serialises writers of table and closeListeners
	table   atomic.Pointer[dispatchTable]
	// closeListeners is replaced as a whole, like table.
	closeListeners atomic.Pointer[[]func(*Conn)]
	// observer sees connections and answers (observer.go); nil: none. Set
	// before Start.
	observer Observer

	state atomic.Int32
	// goingAway makes dispatch answer GO_AWAY (see GoAway).
	goingAway atomic.Bool
	// conns holds every open *Conn by ID, for the idle scan.
	conns sync.Map
	// pools run slow handlers: the default one under "", the named ones of
	// ServerConfig.Pools under their names. Built by Start, read-only after.
	pools map[string]*slowPool
	// frameBuffers recycles the buffers of large frames (see ReleaseBody).
	frameBuffers *frameBufferPool
	// memory counts the request bytes held, against RequestMemoryLimit.
	memory requestMemory
	// knownBrokers are the addresses brokers registered from
	// (request_memory_share.go); frameCloses counts the connections closed
	// for their frames, by reason (frame_rate.go).
	knownBrokers knownBrokerAddrs
	frameCloses  [closeReasons]atomic.Uint64
	// overload paces the warnings of requests answered SYSTEM_BUSY.
	overload overloadLog
	// badInput paces the warnings of connections closed for bad input.
	badInput overloadLog
	// guard caps the open connections (conn_limit.go).
	guard connGuard
	// outbound bounds what waits on each connection (outbound_limit.go).
	outbound outboundGuard
	// failed is closed, failErr set, when gnet stops by itself (watchEngine).
	failed  chan struct{}
	failErr error
	// listener is ours, not gnet's (acceptor.go); acceptStop and acceptDone
	// end and report the end of its accept loop.
	listener   net.Listener
	acceptStop chan struct{}
	acceptDone chan struct{}
	acceptOnce sync.Once
	acceptLog  overloadLog
	// fastRoute and fastHeartbeat answer plain route queries and heartbeats
	// on the event loop (fast_path.go).
	fastRoute     atomic.Pointer[FastRouteHandler]
	fastHeartbeat atomic.Pointer[FastHeartbeatHandler]
	// fastDataVersion answers plain QUERY_DATA_VERSION requests likewise.
	fastDataVersion atomic.Pointer[FastDataVersionHandler]
	// loops holds each event loop's *loopState, by loop (gnet.EventLoop):
	// set when the loop opens its first connection (loop_state.go).
	loops     sync.Map
	loopsMu   sync.Mutex // held only to add a loop
	loopCount int        // loops added, under loopsMu

	engine gnet.Engine
	// netLn serves the port instead of gnet when TLS is on (netlistener.go).
	netLn   *netListener
	addr    net.Addr
	booted  chan struct{}
	runDone chan struct{}
	runErr  error
}

// NewServer builds a server; zero config fields take their defaults.
// Register handlers, then Start.
func NewServer(cfg ServerConfig) *Server {
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:     cfg,
		log:     cfg.Logger.WithField("component", "remoting"),
		booted:  make(chan struct{}),
		runDone: make(chan struct{}),
		failed:  make(chan struct{}),

		acceptStop: make(chan struct{}),
		acceptDone: make(chan struct{}),

		frameBuffers: newFrameBufferPool(),
		memory:       newRequestMemory(cfg),
	}
	s.table.Store(&dispatchTable{byCode: map[int32]route{}})
	s.closeListeners.Store(&[]func(*Conn){})
	return s
}

// Handle registers h for a request code, replacing any earlier handler.
// Safe to call at any time.
func (s *Server) Handle(code int32, h Handler, opts ...HandleOption) {
	r := route{handler: h}
	for _, opt := range opts {
		opt(&r)
	}
	s.updateTable(func(table *dispatchTable) { table.byCode[code] = r })
}

// HandleDefault registers the handler for codes without their own; without
// it they are answered REQUEST_CODE_NOT_SUPPORTED.
func (s *Server) HandleDefault(h Handler, opts ...HandleOption) {
	r := route{handler: h}
	for _, opt := range opts {
		opt(&r)
	}
	s.updateTable(func(table *dispatchTable) { table.fallback = &r })
}

func (s *Server) updateTable(change func(*dispatchTable)) {
	s.tableMu.Lock()
	defer s.tableMu.Unlock()
	old := s.table.Load()
	fresh := &dispatchTable{byCode: make(map[int32]route, len(old.byCode)+1), fallback: old.fallback}
	for code, r := range old.byCode {
		fresh.byCode[code] = r
	}
	change(fresh)
	s.table.Store(fresh)
}

// OnClose adds a listener called once for every closed connection, on the
// event loop (it must not block).
func (s *Server) OnClose(listener func(conn *Conn)) {
	s.tableMu.Lock()
	defer s.tableMu.Unlock()
	listeners := append(append([]func(*Conn){}, *s.closeListeners.Load()...), listener)
	s.closeListeners.Store(&listeners)
}

// Start binds the address and returns once the server accepts connections.
func (s *Server) Start() error {
	if !s.state.CompareAndSwap(stateNew, stateRunning) {
		return fmt.Errorf("start server on %s: %w", s.cfg.Addr, ErrServerClosed)
	}
	s.pools = map[string]*slowPool{"": newSlowPool(s.cfg.SlowWorkers, s.cfg.SlowQueue, s.runSlowJob)}
	for name, size := range s.cfg.Pools {
		if name != "" {
			s.pools[name] = newSlowPool(max(1, size.Workers), max(1, size.Queue), s.runSlowJob)
		}
	}
	events := &eventHandler{server: s}
	if s.cfg.TLS != nil && s.cfg.TLS.Mode != TLSDisabled {
		return s.startNet(events)
	}
	ln, err := listen(s.cfg.Addr)
	if err != nil {
		return s.failStart(err)
	}
	s.listener, s.addr = ln, ln.Addr()
	parking, removeParking, err := parkingListener()
	if err != nil {
		_ = ln.Close()
		return s.failStart(err)
	}
	opts := []gnet.Option{
		gnet.WithMulticore(s.cfg.Multicore),
		gnet.WithTicker(true),
		gnet.WithLogger(newGnetLogger(s.cfg.Logger)),
		// Round robin, as Netty's event loop group hands out channels.
		// gnet's LeastConnections counts a connection only once its loop
		// has registered it, later, from a worker goroutine: a burst of
		// connections (a client's pool, brokers starting together) then
		// all went to one loop and left the other idle. The round-robin
		// balancer must have one caller at a time: Engine.Register from
		// acceptLoop is the only one (gnet's own acceptor serves the
		// parking socket, which nobody dials).
		gnet.WithLoadBalancing(gnet.RoundRobin),
	}
	if s.cfg.NumEventLoops > 0 {
		opts = append(opts, gnet.WithNumEventLoop(s.cfg.NumEventLoops))
	}
	go func() {
		defer close(s.runDone)
		defer removeParking()
		// gnet runs the event loops, acceptLoop feeds them.
		s.runErr = gnet.Run(events, parking, opts...)
	}()
	select {
	case <-s.booted:
		removeParking() // the socket is bound: its path is no longer needed
		s.setConnectionLimit()
		go s.watchEngine()
		go s.acceptLoop(ln)
		s.log.WithField("addr", fmt.Sprint(s.addr)).Info("remoting server listening")
		return nil
	case <-s.runDone:
		close(s.acceptDone) // the loop never started
		s.stopAccepting()
		return s.failStart(s.runErr)
	}
}

// Addr returns the bound address (port 0 resolved); nil before Start.
func (s *Server) Addr() net.Addr { return s.addr }

// GoAway makes the server answer GO_AWAY (1500, "please go away") to every
// request from a client later than 5.3.1, which then turns to another
// NameServer, until it is shut down; older clients, which do not know the
// code, are still served. Java does this for shutdownWaitTimeSeconds before
// stopping when enableShutdownGracefully is set. New connections are still
// accepted, as in Java.
func (s *Server) GoAway() { s.goingAway.Store(true) }

// Shutdown stops taking connections and slow requests, waits until every
// accepted slow request was answered and written, then closes all
// connections and the listener. ctx bounds the whole wait.
func (s *Server) Shutdown(ctx context.Context) error {
	if !s.state.CompareAndSwap(stateRunning, stateDraining) {
		return nil
	}
	s.stopAccepting()
	for _, pool := range s.pools {
		pool.closeIntake()
	}
	var errs []error
	for _, pool := range s.pools {
		errs = append(errs, pool.waitPending(ctx))
	}
	errs = append(errs, s.stopEngine(ctx))
	for _, pool := range s.pools {
		errs = append(errs, pool.stop(ctx))
	}
	s.state.Store(stateStopped)
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("shutdown server on %s: %w", s.addr, err)
	}
	s.log.WithField("addr", fmt.Sprint(s.addr)).Info("remoting server stopped")
	return nil
}

// stopEngine asks gnet to stop and returns when gnet.Run has returned.
// Engine.Stop polls every 500 ms; waiting for Run instead ends as soon as
// the loops are down, then the Stop call is released.
func (s *Server) stopEngine(ctx context.Context) error {
	if s.netLn != nil {
		return s.netLn.stop(ctx)
	}
	stopCtx, cancelStop := context.WithCancel(ctx)
	defer cancelStop()
	stopResult := make(chan error, 1)
	go func() { stopResult <- s.engine.Stop(stopCtx) }()
	select {
	case <-s.runDone:
		cancelStop()
		<-stopResult
		return nil
	case err := <-stopResult:
		// An engine that has ended, or is ending, on its own (Failed) is
		// answered ErrEngineInShutdown at once; select may pick that answer
		// although runDone is closed too, so it is not an error: wait for
		// runDone as after a Stop that worked.
		if err != nil && !errors.Is(err, gnetErrors.ErrEngineInShutdown) {
			return err
		}
		select {
		case <-s.runDone:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Send pushes a command (for example a one-way request) to a peer.
func (s *Server) Send(conn *Conn, cmd *Command) error {
	frame, err := Encode(cmd)
	if err != nil {
		return fmt.Errorf("send to %s: %w", conn, err)
	}
	if conn.loop == nil {
		return conn.asyncWrite(frame, nil, func() {})
	}
	// through the connection's queue, never into the middle of an answer
	// being handed to gnet a chunk at a time (pool_answers.go)
	s.outbound.total.Add(int64(len(frame)))
	return s.enqueueOutput(conn, poolAnswer{frame: frame, done: func() {}}, 0)
}
