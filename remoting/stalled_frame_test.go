package remoting

import (
	"strconv"
	"testing"
	"time"
)

// TestAFrameTricklingPastTheIdleTimeoutClosesItsConnection: a byte every
// 20 ms keeps a connection from being idle, but a frame still incomplete
// after the idle timeout (200 ms) closes it, large or small, and the bytes
// the large one held are given back. A connection that completes its
// frames stays open.
func TestAFrameTricklingPastTheIdleTimeoutClosesItsConnection(t *testing.T) {
	server := startServer(t, ServerConfig{IdleTimeout: 200 * time.Millisecond}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
		s.Handle(REGISTER_BROKER, digestHandler(true), Slow())
	})
	large := mustEncode(t, bodyRequest(REGISTER_BROKER, 1, 1<<20))
	small := mustEncode(t, bodyRequest(GET_ROUTEINFO_BY_TOPIC, 2, 1000))
	for name, frame := range map[string][]byte{"large": large, "small": small} {
		t.Run(name, func(t *testing.T) {
			peer := dialRaw(t, server)
			sent := len(frame) / 2
			peer.write(frame[:sent])
			closed := make(chan struct{})
			go func() {
				defer close(closed)
				peer.expectClosed()
			}()
			for deadline := time.Now().Add(waitLimit); ; sent++ {
				select {
				case <-closed:
					waitHeld(t, server, 0)
					return
				case <-time.After(20 * time.Millisecond):
				}
				if time.Now().After(deadline) || sent == len(frame)-1 {
					t.Fatal("the connection stayed open")
				}
				_, _ = peer.conn.Write(frame[sent : sent+1])
			}
		})
	}
}

// TestWholeFramesKeepAConnectionOpen: a frame that arrives in two pieces
// 100 ms apart, then whole frames every 20 ms for three idle timeouts
// (400 ms): the completed frame ends the wait, nothing is closed.
func TestWholeFramesKeepAConnectionOpen(t *testing.T) {
	server := startServer(t, ServerConfig{IdleTimeout: 400 * time.Millisecond}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
	})
	peer := dialRaw(t, server)
	first := mustEncode(t, bodyRequest(GET_ROUTEINFO_BY_TOPIC, 100, 10))
	peer.write(first[:10]) // a partial frame, completed 100 ms later
	time.Sleep(100 * time.Millisecond)
	peer.write(first[10:])
	expectAnswer(t, peer, 100, SUCCESS, "100")
	for i := range 60 {
		peer.send(bodyRequest(GET_ROUTEINFO_BY_TOPIC, int32(i), 10))
		expectAnswer(t, peer, int32(i), SUCCESS, strconv.Itoa(i))
		time.Sleep(20 * time.Millisecond)
	}
}
