package remoting

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
)

// Defaults of ClientConfig.
const (
	// DefaultDialTimeout bounds connection set-up (Java clients use 3 s).
	DefaultDialTimeout = 3 * time.Second
	// DefaultRequestTimeout applies when a call's ctx has no deadline (the
	// Java tools' 5 s default).
	DefaultRequestTimeout = 5 * time.Second
	// DefaultMaxPending bounds the calls in flight on one client.
	DefaultMaxPending = 10000
)

// ClientConfig holds client settings; zero fields take the defaults.
type ClientConfig struct {
	// DialTimeout bounds the TCP connect.
	DialTimeout time.Duration
	// RequestTimeout is used when the call's context has no deadline.
	RequestTimeout time.Duration
	// MaxFrameSize bounds the frames the client accepts.
	MaxFrameSize int
	// MaxPending bounds the calls waiting for an answer.
	MaxPending int
	// OnRequest, when set, receives requests the server pushes (such as
	// NOTIFY_MIN_BROKER_ID_CHANGE) on the reading goroutine, so it must not
	// block; a non-nil return is sent back unless the request was one-way.
	OnRequest func(req *Command) *Command
	// Logger receives the client's log lines.
	Logger *logrus.Entry
	// TLS, when set, makes the connection TLS with this configuration;
	// LocalAddr, when set, is the address the client dials from;
	// Sign, when set, is called on every request before it is written
	// (ACL signatures). See client_options.go.
	TLS       *tls.Config
	LocalAddr net.Addr
	Sign      func(req *Command)
}

func (cfg ClientConfig) withDefaults() ClientConfig {
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxFrameSize <= 0 {
		cfg.MaxFrameSize = DefaultMaxFrameSize
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = DefaultMaxPending
	}
	if cfg.Logger == nil {
		cfg.Logger = logrus.NewEntry(logrus.StandardLogger())
	}
	return cfg
}

// Client is a pipelining RocketMQ remoting client over one TCP connection:
// many goroutines share it and answers are matched by opaque. It dials on
// first use and again on the next call after the connection broke.
type Client struct {
	addr       string
	cfg        ClientConfig
	log        *logrus.Entry
	nextOpaque atomic.Int32

	mu     sync.Mutex // guards session and closed
	active *clientSession
	closed bool
}

// NewClient returns a client for addr ("host:port"); it does not dial yet.
func NewClient(addr string, cfg ClientConfig) *Client {
	cfg = cfg.withDefaults()
	cfg.TLS = serverNamed(cfg.TLS, addr)
	return &Client{addr: addr, cfg: cfg, log: cfg.Logger.WithFields(logrus.Fields{"component": "remoting-client", "addr": addr})}
}

// Addr returns the server address the client talks to.
func (c *Client) Addr() string { return c.addr }

// Invoke sends req and waits for its answer until ctx ends (or
// RequestTimeout when ctx has no deadline). It sets req.Opaque to a fresh
// value, so a req must not be shared by concurrent calls.
func (c *Client) Invoke(ctx context.Context, req *Command) (*Command, error) {
	ctx, cancel := c.withDefaultTimeout(ctx)
	defer cancel()
	session, err := c.prepare(ctx, req, 0)
	if err != nil {
		return nil, fmt.Errorf("invoke %s on %s: %w", RequestCodeName(req.Code), c.addr, err)
	}
	answer, err := session.call(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("invoke %s on %s: %w", RequestCodeName(req.Code), c.addr, err)
	}
	return answer, nil
}

// InvokeOneway sends req with the one-way bit set and returns once it is
// written; no answer comes.
func (c *Client) InvokeOneway(ctx context.Context, req *Command) error {
	ctx, cancel := c.withDefaultTimeout(ctx)
	defer cancel()
	session, err := c.prepare(ctx, req, flagOneway)
	if err != nil {
		return fmt.Errorf("oneway %s to %s: %w", RequestCodeName(req.Code), c.addr, err)
	}
	if err := session.write(ctx, req); err != nil {
		return fmt.Errorf("oneway %s to %s: %w", RequestCodeName(req.Code), c.addr, err)
	}
	return nil
}

// withDefaultTimeout applies RequestTimeout when ctx has no deadline.
func (c *Client) withDefaultTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, hasDeadline := ctx.Deadline(); hasDeadline {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.cfg.RequestTimeout)
}

// prepare gets a live session and stamps req as a request with a fresh
// opaque and the given extra flag bits.
func (c *Client) prepare(ctx context.Context, req *Command, flags int32) (*clientSession, error) {
	session, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	req.Opaque = c.nextOpaque.Add(1)
	req.Flag = req.Flag&^(flagResponse|flagOneway) | flags
	if c.cfg.Sign != nil {
		c.cfg.Sign(req)
	}
	return session, nil
}

// Close closes the connection, fails pending calls with ErrClientClosed and
// waits for the reading goroutine to end.
func (c *Client) Close() error {
	c.mu.Lock()
	c.closed = true
	session := c.active
	c.active = nil
	c.mu.Unlock()
	if session == nil {
		return nil
	}
	session.shutdown(ErrClientClosed)
	<-session.readerDone
	return nil
}

// session returns the live connection, dialing a new one when there is none
// or the last one broke.
func (c *Client) session(ctx context.Context) (*clientSession, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClientClosed
	}
	if c.active != nil && !c.active.broken() {
		return c.active, nil
	}
	dialCtx, cancel := context.WithTimeout(ctx, c.cfg.DialTimeout)
	defer cancel()
	netConn, err := c.dial(dialCtx)
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	c.active = newClientSession(netConn, c.cfg, c.log)
	return c.active, nil
}

// clientSession is one TCP connection with its pending calls. Its reading
// goroutine is owned by the session: shutdown closes the socket, which ends it.
type clientSession struct {
	netConn net.Conn
	cfg     ClientConfig
	log     *logrus.Entry

	writeMu sync.Mutex

	pendingMu sync.Mutex
	pending   map[int32]chan *Command
	failure   error // set once the session is dead

	readerDone chan struct{}
}

func newClientSession(netConn net.Conn, cfg ClientConfig, log *logrus.Entry) *clientSession {
	session := &clientSession{
		netConn:    netConn,
		cfg:        cfg,
		log:        log.WithField("local", netConn.LocalAddr().String()),
		pending:    make(map[int32]chan *Command),
		readerDone: make(chan struct{}),
	}
	go session.readLoop()
	return session
}

func (s *clientSession) broken() bool {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	return s.failure != nil
}

// call registers the pending slot, writes the request and waits.
func (s *clientSession) call(ctx context.Context, req *Command) (*Command, error) {
	answer := make(chan *Command, 1)
	s.pendingMu.Lock()
	if s.failure != nil {
		s.pendingMu.Unlock()
		return nil, s.failure
	}
	if len(s.pending) >= s.cfg.MaxPending {
		s.pendingMu.Unlock()
		return nil, ErrTooManyPending
	}
	s.pending[req.Opaque] = answer
	s.pendingMu.Unlock()
	defer s.forget(req.Opaque)

	if err := s.write(ctx, req); err != nil {
		return nil, err
	}
	select {
	case response, ok := <-answer:
		if !ok {
			return nil, s.failureCause()
		}
		return response, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for opaque %d: %w", req.Opaque, ctx.Err())
	}
}

func (s *clientSession) forget(opaque int32) {
	s.pendingMu.Lock()
	delete(s.pending, opaque)
	s.pendingMu.Unlock()
}

func (s *clientSession) failureCause() error {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	return s.failure
}

// write encodes cmd and writes it whole, under ctx's deadline; a failed
// write breaks the session, since a partial frame poisons the stream.
func (s *clientSession) write(ctx context.Context, cmd *Command) error {
	frame, err := Encode(cmd)
	if err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if deadline, ok := ctx.Deadline(); ok {
		_ = s.netConn.SetWriteDeadline(deadline)
	}
	if _, err := s.netConn.Write(frame); err != nil {
		s.shutdown(fmt.Errorf("write: %w: %w", ErrConnectionClosed, err))
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// shutdown marks the session dead with cause, closes the socket and fails
// every pending call. Only the first cause is kept.
func (s *clientSession) shutdown(cause error) {
	s.pendingMu.Lock()
	if s.failure == nil {
		s.failure = cause
		for opaque, answer := range s.pending {
			close(answer)
			delete(s.pending, opaque)
		}
	}
	s.pendingMu.Unlock()
	_ = s.netConn.Close()
}

// readLoop reads frames until the connection ends, delivering answers to
// their callers and pushed requests to OnRequest.
func (s *clientSession) readLoop() {
	defer close(s.readerDone)
	reader := bufio.NewReaderSize(s.netConn, 64<<10)
	for answered := false; ; answered = true {
		cmd, err := readFrame(reader, s.cfg.MaxFrameSize)
		if err != nil {
			cause := fmt.Errorf("read: %w: %w", ErrConnectionClosed, err)
			if errors.Is(err, io.EOF) {
				cause = fmt.Errorf("peer closed the connection: %w", ErrConnectionClosed)
			}
			if !answered && s.cfg.TLS == nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) {
				cause = closedBeforeAnswer(err)
			}
			s.shutdown(cause)
			return
		}
		if cmd.IsResponse() {
			s.deliver(cmd)
			continue
		}
		s.serveRequest(cmd)
	}
}

func (s *clientSession) deliver(response *Command) {
	s.pendingMu.Lock()
	answer, ok := s.pending[response.Opaque]
	delete(s.pending, response.Opaque)
	s.pendingMu.Unlock()
	if !ok {
		s.log.WithField("opaque", response.Opaque).Debug("answer for no pending call (timed out?), dropped")
		return
	}
	answer <- response
}

// serveRequest hands a server-pushed request to OnRequest and writes its
// answer back unless the request was one-way.
func (s *clientSession) serveRequest(request *Command) {
	if s.cfg.OnRequest == nil {
		s.log.WithField("code", RequestCodeName(request.Code)).Debug("pushed request ignored, no OnRequest hook")
		return
	}
	response := s.cfg.OnRequest(request)
	if response == nil || request.IsOneway() {
		return
	}
	response.MarkResponse()
	response.Opaque = request.Opaque
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.RequestTimeout)
	defer cancel()
	if err := s.write(ctx, response); err != nil {
		s.log.WithError(err).Debug("answer to pushed request not written")
	}
}

// readFrame reads one whole frame from reader, checking its length before
// allocating, and decodes it. The returned command owns its bytes.
func readFrame(reader *bufio.Reader, maxFrameSize int) (*Command, error) {
	var lengthField [frameLengthSize]byte
	if _, err := io.ReadFull(reader, lengthField[:]); err != nil {
		return nil, err
	}
	total, _, err := FrameLength(lengthField[:], maxFrameSize)
	if err != nil {
		return nil, err
	}
	frame := make([]byte, total-frameLengthSize)
	if _, err := io.ReadFull(reader, frame); err != nil {
		return nil, fmt.Errorf("frame of %d bytes: %w", len(frame), err)
	}
	return DecodeFrame(frame)
}
