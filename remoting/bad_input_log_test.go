package remoting

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// hookedServer is a server whose log lines, debug ones included, go to hook.
func hookedServer(t *testing.T) (*Server, *logtest.Hook) {
	logger, hook := logtest.NewNullLogger()
	logger.SetLevel(logrus.DebugLevel)
	server := startServer(t, ServerConfig{Logger: logrus.NewEntry(logger)}, func(s *Server) { s.Handle(PUT_KV_CONFIG, echoHandler) })
	return server, hook
}

func countEntries(hook *logtest.Hook, level logrus.Level, message string) int {
	n := 0
	for _, e := range hook.AllEntries() {
		if e.Level == level && e.Message == message {
			n++
		}
	}
	return n
}

// TestPeerClosingMidFrameIsNoBadInput reproduces an operator trap of issue
// 13: a peer that closed its connection in the middle of a large frame was
// logged as a WARN "bad input". It is a debug line now.
func TestPeerClosingMidFrameIsNoBadInput(t *testing.T) {
	server, hook := hookedServer(t)
	frame := mustEncode(t, &Command{Code: PUT_KV_CONFIG, Body: make([]byte, 1<<20)})
	for range 5 {
		peer := dialRaw(t, server)
		peer.write(frame[:len(frame)/2])
		peer.conn.Close()
	}
	probe := dialRaw(t, server) // answered after the five closes were handled: same loop order
	probe.send(&Command{Code: PUT_KV_CONFIG, Opaque: 1})
	probe.read()
	deadline := time.Now().Add(waitLimit)
	for server.OpenConnections() != 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	for _, e := range hook.AllEntries() {
		if e.Level <= logrus.WarnLevel {
			t.Errorf("a peer closing mid-frame was logged at %s: %q %v", e.Level, e.Message, e.Data)
		}
	}
}

// TestBadInputWarningsAreRateLimited: 50 connections sending garbage make
// one warning a second (plus one for a second's turn), not 50.
func TestBadInputWarningsAreRateLimited(t *testing.T) {
	server, hook := hookedServer(t)
	start := time.Now()
	for range 50 {
		peer := dialRaw(t, server)
		peer.write([]byte{0, 0, 0, 8, 9, 0, 0, 0, 1, 2, 3, 4}) // serialize type 9
		peer.expectClosed()
	}
	most := int(time.Since(start)/overloadLogInterval) + 2
	if n := countEntries(hook, logrus.WarnLevel, "bad input, closing the connection"); n < 1 || n > most {
		t.Fatalf("%d bad input warnings for 50 bad connections, want 1 to %d", n, most)
	}
}
