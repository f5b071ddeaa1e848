package remoting

import (
	"testing"
	"time"
)

// TestFrameRateVerdicts: the rate check's rules on a clock of its own. A
// frame with no byte for the stall timeout is stalled; over a window of
// that timeout it must get minRate bytes a second, or what it still lacks
// when less; a new frame starts a new window.
func TestFrameRateVerdicts(t *testing.T) {
	const timeout, rate = 10 * time.Second, 1000
	start := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	var p frameProgress
	if v := p.verdict(at(time.Hour), timeout, rate); v != closeReasons {
		t.Fatalf("no frame: %d", v)
	}
	p.started(1_000_000, start)
	p.grew(100, at(time.Second))
	if v := p.verdict(at(time.Second), timeout, rate); v != closeReasons { // opens the window at 100 bytes
		t.Fatalf("fresh frame: %s", FrameCloseReasons[min(v, closeReasons-1)])
	}
	p.grew(100+10*rate, at(9*time.Second))
	if v := p.verdict(at(11*time.Second), timeout, rate); v != closeReasons {
		t.Fatalf("10 s at the rate: %s", FrameCloseReasons[min(v, closeReasons-1)])
	}
	p.grew(100+10*rate+9*rate, at(20*time.Second))
	if v := p.verdict(at(21*time.Second), timeout, rate); v != closeSlow {
		t.Fatalf("9,000 bytes in 10 s: %d, want slow", v)
	}
	if v := p.verdict(at(30*time.Second), timeout, rate); v != closeStalled {
		t.Fatalf("no byte for 10 s: %d, want stalled", v)
	}

	p.excuse(at(30 * time.Second)) // left unread by the server meanwhile: the clocks start again
	if v := p.verdict(at(39*time.Second), timeout, rate); v != closeReasons {
		t.Fatalf("after the excuse: %d", v)
	}
	if v := p.verdict(at(40*time.Second), timeout, rate); v != closeStalled {
		t.Fatalf("no byte for 10 s after the excuse: %d, want stalled", v)
	}

	var tail frameProgress // a frame lacking less than a window's worth needs only that
	tail.started(5000, start)
	tail.grew(4000, start)
	tail.verdict(start, timeout, rate)
	tail.grew(4999, at(9*time.Second))
	if v := tail.verdict(at(10*time.Second), timeout, rate); v != closeSlow {
		t.Fatalf("one byte short: %d, want slow", v)
	}
	tail.started(5000, at(10*time.Second)) // the next frame: a window of its own
	if v := tail.verdict(at(10*time.Second), timeout, rate); v != closeReasons {
		t.Fatalf("new frame: %d", v)
	}
	tail.ended()
	if v := tail.verdict(at(time.Hour), timeout, rate); v != closeReasons {
		t.Fatalf("ended frame: %d", v)
	}
}

// TestAStalledLargeFrameClosesItsConnection: half of a 1 MiB frame, then
// nothing: the connection closes after the stall timeout (200 ms, long
// before the idle timeout), counted as stalled, its memory given back; a
// connection sending a whole frame meanwhile is answered.
func TestAStalledLargeFrameClosesItsConnection(t *testing.T) {
	server, gate := gatedServerWith(t, ServerConfig{LargeFrameStallTimeout: 200 * time.Millisecond})
	close(gate)
	frame := mustEncode(t, bodyRequest(REGISTER_BROKER, 1, 1<<20))
	stalled := dialRaw(t, server)
	stalled.write(frame[:len(frame)/2])
	other := dialRaw(t, server)
	other.write(frame)
	expectAnswer(t, other, 1, SUCCESS, "1")
	stalled.expectClosed()
	waitHeld(t, server, 0)
	if closes := server.FrameCloses(); closes[closeStalled] != 1 || closes[closeSlow] != 0 {
		t.Fatalf("closes %v", closes)
	}
}

// TestATricklingLargeFrameClosesItsConnection: 1 KiB every 10 ms keeps a
// frame from stalling, but at well under 1 MiB/s over a 300 ms window it is
// too slow: closed, counted as slow.
func TestATricklingLargeFrameClosesItsConnection(t *testing.T) {
	server, _ := gatedServerWith(t, ServerConfig{LargeFrameStallTimeout: 300 * time.Millisecond, LargeFrameMinRate: 1 << 20})
	frame := mustEncode(t, bodyRequest(REGISTER_BROKER, 1, 2<<20))
	peer := dialRaw(t, server)
	peer.write(frame[:100<<10])
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		peer.expectClosed()
	}()
	for sent, deadline := 100<<10, time.Now().Add(waitLimit); ; sent += 1 << 10 {
		select {
		case <-closed:
			waitHeld(t, server, 0)
			if closes := server.FrameCloses(); closes[closeSlow] != 1 {
				t.Fatalf("closes %v", closes)
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the trickling connection stayed open")
		}
		_, _ = peer.conn.Write(frame[sent : sent+1<<10])
	}
}
