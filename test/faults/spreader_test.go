package faults

import (
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// spreaderDialTimeout bounds one dial of a target by the forwarder.
const spreaderDialTimeout = time.Second

// spreader is a TCP forwarder in the test process: each connection it
// accepts goes to the next of its targets, round robin, that takes a dial
// (a dead one is passed over), the way a load-balanced Service address
// spreads clients over the pods behind it. Everything it opened is closed
// when the test ends.
type spreader struct {
	ln      net.Listener
	targets []string

	mu     sync.Mutex
	next   int
	conns  []net.Conn
	counts map[string]int
	closed bool
	wg     sync.WaitGroup
}

// startSpreader listens on a free port of host.
func startSpreader(t *testing.T, host string, targets []string) *spreader {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, fmt.Sprint(freePort(t))))
	if err != nil {
		t.Fatalf("forwarder: %v", err)
	}
	s := &spreader{ln: ln, targets: targets, counts: map[string]int{}}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.close)
	return s
}

func (s *spreader) addr() string { return s.ln.Addr().String() }

func (s *spreader) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go s.forward(c)
	}
}

// forward dials the next target that answers and copies both ways until
// either side closes, then closes both.
func (s *spreader) forward(c net.Conn) {
	defer s.wg.Done()
	var up net.Conn
	for range s.targets {
		s.mu.Lock()
		target := s.targets[s.next%len(s.targets)]
		s.next++
		s.mu.Unlock()
		if d, err := net.DialTimeout("tcp", target, spreaderDialTimeout); err == nil {
			up = d
			s.mu.Lock()
			s.counts[target]++
			s.mu.Unlock()
			break
		}
	}
	if up == nil || !s.track(c, up) {
		c.Close()
		if up != nil {
			up.Close()
		}
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	<-done
}

// track records both ends for close; false once closed.
func (s *spreader) track(conns ...net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns = append(s.conns, conns...)
	return true
}

// spread is how many connections went to each target, in target order.
func (s *spreader) spread() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	for _, target := range s.targets {
		parts = append(parts, fmt.Sprintf("%s: %d", target, s.counts[target]))
	}
	return strings.Join(parts, ", ")
}

func (s *spreader) close() {
	s.mu.Lock()
	s.closed = true
	conns := s.conns
	s.mu.Unlock()
	s.ln.Close()
	for _, c := range conns {
		c.Close()
	}
	s.wg.Wait()
}

func TestSpreaderSpreadsConnectionsAndPassesOverADeadTarget(t *testing.T) {
	var targets []string
	for range 2 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		targets = append(targets, ln.Addr().String())
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() { _, _ = io.Copy(c, c); c.Close() }()
			}
		}()
	}
	dead := net.JoinHostPort("127.0.0.1", fmt.Sprint(freePort(t)))
	s := startSpreader(t, "127.0.0.1", []string{targets[0], dead, targets[1]})
	for i := range 3 {
		c, err := net.Dial("tcp", s.addr())
		if err != nil {
			t.Fatal(err)
		}
		msg := fmt.Sprint("ping", i)
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, len(msg))
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(c, buf); err != nil || string(buf) != msg {
			t.Fatalf("connection %d: %q %v", i, buf, err)
		}
		c.Close()
	}
	if got, want := s.spread(), fmt.Sprintf("%s: 2, %s: 0, %s: 1", targets[0], dead, targets[1]); got != want {
		t.Fatalf("spread %s, want %s", got, want)
	}
}
