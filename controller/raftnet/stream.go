// Package raftnet is the controller's Raft transport below hashicorp/raft's
// NetworkTransport: a raft.StreamLayer that listens on the node's own Raft
// address only, hands Raft only the connections that come from a listed
// peer's host (and, with the controllerRaftTls* keys, that completed a
// mutual TLS handshake with a certificate of the group's CA), and dials
// peers from the node's own address, over TLS when it is on. Everything
// else is closed before Raft reads a byte of it, counted and logged.
package raftnet

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/hostset"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// HandshakeTimeout bounds an accepted connection's TLS handshake.
const HandshakeTimeout = 10 * time.Second

// MaxHandshakes bounds the TLS handshakes in progress on the Raft port at
// once (each holds a goroutine); past it a connection is refused as busy.
const MaxHandshakes = 64

// The reasons a connection is refused (the metric's label values).
const (
	ReasonNotAPeer = "not_a_peer"
	ReasonTLS      = "tls"
	ReasonBusy     = "busy"
)

// Reasons lists them, for a metric's label values.
var Reasons = []string{ReasonNotAPeer, ReasonTLS, ReasonBusy}

// refusedLogInterval paces the log of refused connections, per reason.
const refusedLogInterval = time.Second

// RedialEvery is how often a peer that refused a connection is dialled
// again until the dial's timeout (Dial).
const RedialEvery = 50 * time.Millisecond

// ErrClosed is Accept's error once the stream is closed.
var ErrClosed = errors.New("raft stream closed")

// Options configure Listen.
type Options struct {
	// Addr is the node's own Raft address (host:port), bound exactly.
	Addr string
	// PeerHosts are the listed peers' hosts (IP literals or names), the
	// node's own included: the addresses a connection may come from.
	PeerHosts []string
	// TLS, when not nil, is the mutual TLS files.
	TLS *TLSFiles
	// Refused is called once per refused connection with its reason.
	Refused func(reason string)
	Log     *logrus.Entry
}

// Stream is the raft.StreamLayer.
type Stream struct {
	ln net.Listener
	// peers is replaced whole by SetPeerHosts when the members change.
	peers atomic.Pointer[hostset.Set]
	// peersLog is the log the peer sets warn on.
	peersLog *logrus.Entry
	tls      *tlsConfigs
	// dialer leaves from the listener's host: a peer with several addresses
	// is seen by the others at the one they listed.
	dialer     net.Dialer
	refused    func(string)
	log        *logrus.Entry
	refusedLog ratelog.Set

	ready      chan net.Conn
	handshakes chan struct{}
	ctx        context.Context
	cancel     context.CancelFunc
	// dialCtx ends the dials in progress (StopDialing, Close).
	dialCtx   context.Context
	stopDials context.CancelFunc
	closeOnce sync.Once
	wg        sync.WaitGroup
}

var _ raft.StreamLayer = (*Stream)(nil)

// Listen binds opts.Addr and starts accepting.
func Listen(opts Options) (*Stream, error) {
	s := &Stream{refused: opts.Refused, log: opts.Log, ready: make(chan net.Conn),
		handshakes: make(chan struct{}, MaxHandshakes), refusedLog: ratelog.Set{Interval: refusedLogInterval}}
	if s.refused == nil {
		s.refused = func(string) {}
	}
	if opts.TLS != nil {
		var err error
		if s.tls, err = loadTLS(*opts.TLS); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok || addr.IP.IsUnspecified() {
		ln.Close()
		return nil, fmt.Errorf("raft address %s: the self peer's host must be one address of this machine, not every address", opts.Addr)
	}
	s.ln = ln
	s.dialer.LocalAddr = &net.TCPAddr{IP: addr.IP, Zone: addr.Zone}
	s.peersLog = opts.Log
	s.peers.Store(newPeerSet(opts.PeerHosts, opts.Log))
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.dialCtx, s.stopDials = context.WithCancel(s.ctx)
	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

// Accept returns the next connection that passed the checks.
func (s *Stream) Accept() (net.Conn, error) {
	select {
	case c := <-s.ready:
		return c, nil
	case <-s.ctx.Done():
		return nil, ErrClosed
	}
}

// Close stops listening; handshakes in progress are cut short.
func (s *Stream) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.cancel()
		err = s.ln.Close()
		s.wg.Wait()
	})
	return err
}

// Addr is the bound address.
func (s *Stream) Addr() net.Addr { return s.ln.Addr() }

// Dial connects to a peer from the node's own host, completing the TLS
// handshake within timeout when TLS is on.
//
// A peer that refuses the connection or cannot be routed to (its process
// stopped, its link down) is dialled again every RedialEvery until timeout
// passes, as one that does not answer at all is waited for: hashicorp's
// replication counts each failed call and waits 10 ms doubled per failure
// (up to 10 s) before the next, and a peer that refused at once a few times
// a second while it restarted had that wait ahead of it once it was back,
// its log behind and the group's commits waiting on it when another node
// was down. Waiting here, the count grows once per timeout and the first
// dial after the peer's return gets through.
func (s *Stream) Dial(address raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	dialCtx, cancelDial := context.WithTimeout(s.dialCtx, budget(timeout))
	defer cancelDial()
	conn, err := s.dialer.DialContext(dialCtx, "tcp", string(address))
	for err != nil && peerAway(err) {
		select {
		case <-dialCtx.Done():
			return nil, err
		case <-time.After(RedialEvery):
		}
		conn, err = s.dialer.DialContext(dialCtx, "tcp", string(address))
	}
	if err != nil || s.tls == nil {
		return conn, err
	}
	ctx, cancel := context.WithTimeout(s.dialCtx, budget(timeout)) // StopDialing ends a handshake too
	defer cancel()
	tc := tls.Client(conn, s.tls.client)
	if err := tc.HandshakeContext(ctx); err != nil {
		conn.Close()
		return nil, fmt.Errorf("raft TLS handshake with %s: %w", address, err)
	}
	return tc, nil
}

// peerAway tells a dial that failed at once because nothing listens at
// the peer's address or no route leads there now.
func peerAway(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}

// StopDialing ends the dials in progress and fails later ones at once:
// before Raft stops for good, whose shutdown waits for its calls to end.
func (s *Stream) StopDialing() { s.stopDials() }

// budget is the time a dial, and then its TLS handshake, is given: Raft's
// timeout, or HandshakeTimeout when Raft gives none.
func budget(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return HandshakeTimeout
	}
	return timeout
}

func (s *Stream) acceptLoop() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			// A temporary failure (descriptors run out): wait a little
			// rather than spin.
			s.log.WithError(err).Warn("raft port accept failed")
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if !s.fromPeer(conn) {
			s.refuse(conn, ReasonNotAPeer, nil)
			continue
		}
		if s.tls == nil {
			s.hand(conn)
			continue
		}
		select {
		case s.handshakes <- struct{}{}:
		default:
			s.refuse(conn, ReasonBusy, fmt.Errorf("%d TLS handshakes in progress", MaxHandshakes))
			continue
		}
		s.wg.Add(1)
		go s.handshake(conn)
	}
}

// fromPeer says whether conn comes from a listed peer's host; an unknown
// address makes the names resolved again (in the background, paced).
func (s *Stream) fromPeer(conn net.Conn) bool {
	tcp, ok := conn.RemoteAddr().(*net.TCPAddr)
	if !ok {
		return false
	}
	ip, _ := netip.AddrFromSlice(tcp.IP)
	return s.peers.Load().Contains(ip)
}

// handshake runs one accepted connection's TLS handshake within
// HandshakeTimeout, off the accept loop, and hands it on if it succeeds.
func (s *Stream) handshake(conn net.Conn) {
	defer s.wg.Done()
	defer func() { <-s.handshakes }()
	ctx, cancel := context.WithTimeout(s.ctx, HandshakeTimeout)
	defer cancel()
	tc := tls.Server(conn, s.tls.server)
	if err := tc.HandshakeContext(ctx); err != nil {
		s.refuse(conn, ReasonTLS, err)
		return
	}
	s.hand(tc)
}

// hand gives conn to Accept, or closes it when the stream closes first.
func (s *Stream) hand(conn net.Conn) {
	select {
	case s.ready <- conn:
	case <-s.ctx.Done():
		conn.Close()
	}
}

func (s *Stream) refuse(conn net.Conn, reason string, err error) {
	remote := conn.RemoteAddr().String()
	// Counted before the close: whoever sees the close may read the count.
	s.refused(reason)
	conn.Close()
	s.refusedLog.Log(s.log, logrus.WarnLevel, logrus.Fields{"remote": remote, "reason": reason}, err,
		"raft connection refused: "+refusedWhy[reason])
}

// refusedWhy is each reason's log message tail.
var refusedWhy = map[string]string{
	ReasonNotAPeer: "not from a listed controller peer's host",
	ReasonTLS:      "no mutual TLS handshake with a certificate of controllerRaftTlsTrustCertPath's CA",
	ReasonBusy:     "too many TLS handshakes in progress",
}
