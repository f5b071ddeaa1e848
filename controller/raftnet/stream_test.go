package raftnet

import (
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// refusals counts Refused calls by reason.
type refusals struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *refusals) add(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[reason]++
}

func (r *refusals) get(reason string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[reason]
}

// listen starts a Stream on a free 127.0.0.1 port whose only peer host is
// 127.0.0.1, and a goroutine feeding what it accepts to the channel.
func listen(t *testing.T, files *TLSFiles) (*Stream, *refusals, chan net.Conn) {
	t.Helper()
	r := &refusals{}
	s, err := Listen(Options{Addr: "127.0.0.1:0", PeerHosts: []string{"127.0.0.1"}, TLS: files, Refused: r.add, Log: testlog.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := s.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	t.Cleanup(func() {
		s.Close()
		for {
			select {
			case c := <-accepted:
				c.Close()
			default:
				return
			}
		}
	})
	return s, r, accepted
}

// dialFrom connects to addr from source address src (Linux routes all of
// 127/8 to lo; the test is skipped where 127.0.0.2 cannot be bound).
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if src != "127.0.0.1" {
			t.Skipf("cannot dial from %s: %v", src, err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// readsNothing says the connection ends without a byte for the reader.
func readsNothing(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	n, err := c.Read(make([]byte, 64))
	var ne net.Error
	if n != 0 || err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		t.Fatalf("read %d bytes, %v: want the connection closed without an answer", n, err)
	}
}

func TestConnectionFromAStrangerIsClosedAndCounted(t *testing.T) {
	s, r, accepted := listen(t, nil)
	stranger := dialFrom(t, "127.0.0.2", s.Addr().String())
	stranger.Write([]byte{0, 1, 2, 3}) // an rpc type byte and more: never read
	readsNothing(t, stranger)
	waitFor(t, "the refusal counted", func() bool { return r.get(ReasonNotAPeer) == 1 })

	peer := dialFrom(t, "127.0.0.1", s.Addr().String())
	var got net.Conn
	select {
	case got = <-accepted:
	case <-time.After(20 * time.Second):
		t.Fatal("a peer's connection was not accepted")
	}
	if got.RemoteAddr().String() != peer.LocalAddr().String() {
		t.Fatalf("accepted %s, the peer is %s (the stranger's reached Accept)", got.RemoteAddr(), peer.LocalAddr())
	}
	peer.Write([]byte("ping"))
	buf := make([]byte, 4)
	if _, err := io.ReadFull(got, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("read %q %v", buf, err)
	}
}

func TestListenBindsTheGivenHostOnly(t *testing.T) {
	s, _, _ := listen(t, nil)
	addr := s.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.ParseIP("127.0.0.1")) {
		t.Fatalf("bound %s, want 127.0.0.1", addr)
	}
	if c, err := net.DialTimeout("tcp", (&net.TCPAddr{IP: net.ParseIP("127.0.0.2"), Port: addr.Port}).String(), 10*time.Second); err == nil {
		c.Close()
		t.Fatal("the port answers on 127.0.0.2 as well")
	}
	if s, err := Listen(Options{Addr: "0.0.0.0:0", Log: testlog.Discard()}); err == nil {
		s.Close()
		t.Fatal("an unspecified host was bound")
	}
}

// freeAddr is a loopback address nothing listens on (bound, then closed).
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// dialResult runs s.Dial(addr, timeout) in the background.
func dialResult(s *Stream, addr string, timeout time.Duration) chan error {
	done := make(chan error, 1)
	go func() {
		c, err := s.Dial(raft.ServerAddress(addr), timeout)
		if c != nil {
			c.Close()
		}
		done <- err
	}()
	return done
}

// waitResult is the dial's error, failing the test if it has not ended
// within 20 s (a guard against a hang, not a measure).
func waitResult(t *testing.T, done chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("the dial did not end")
		return nil
	}
}

// A peer that refuses while it restarts is dialled again until its
// timeout: the dial gets through once the peer listens, instead of failing
// at once (each failure lengthens Raft's replication backoff).
func TestDialWaitsForAPeerThatRefuses(t *testing.T) {
	s, _, _ := listen(t, nil)
	addr := freeAddr(t)
	done := dialResult(s, addr, 20*time.Second)
	time.Sleep(5 * RedialEvery) // refused a few times meanwhile
	select {
	case err := <-done:
		t.Fatalf("the dial ended while the peer was away: %v", err)
	default:
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	defer l.Close()
	if err := waitResult(t, done); err != nil {
		t.Fatalf("dial after the peer came back: %v", err)
	}
}

// Past its timeout a dial to a peer that still refuses fails, saying so.
func TestDialToAPeerStillAwayFailsAtItsTimeout(t *testing.T) {
	s, _, _ := listen(t, nil)
	err := waitResult(t, dialResult(s, freeAddr(t), 3*RedialEvery))
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial to nobody: %v, want connection refused", err)
	}
}

// StopDialing ends a dial that would wait an hour for its peer, and the
// later ones fail at once: Raft's shutdown waits for its calls.
func TestStopDialingEndsTheDialsInProgress(t *testing.T) {
	s, _, _ := listen(t, nil)
	addr := freeAddr(t)
	done := dialResult(s, addr, time.Hour)
	time.Sleep(2 * RedialEvery)
	s.StopDialing()
	if err := waitResult(t, done); err == nil {
		t.Fatal("a stopped dial got a connection")
	}
	if err := waitResult(t, dialResult(s, addr, time.Hour)); err == nil {
		t.Fatal("a dial after StopDialing got a connection")
	}
}
