package httpapi

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// TestFailedHandshakesLoggedOnceASecond: 50 failed HTTPS handshakes in a
// burst write one warning, not 50 (before, net/http's line each), and the
// next one counts those held back.
func TestFailedHandshakesLoggedOnceASecond(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s, err := NewTLS("127.0.0.1:0", logrus.NewEntry(logger), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shutdownAtCleanup(t, s)
	handshakeFails := func(n int) {
		for range n {
			c, err := net.Dial("tcp", s.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			_, _ = c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")) // not a TLS record
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, _ = c.Read(make([]byte, 64))
			c.Close()
		}
	}
	lines := func() (n int, last *logrus.Entry) {
		for _, e := range hook.AllEntries() {
			if strings.Contains(e.Message, "TLS handshake failed") {
				n++
				last = e
			}
		}
		return n, last
	}
	handshakeFails(50)
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := lines(); n == 0 && time.Now().Before(deadline); n, _ = lines() {
		time.Sleep(10 * time.Millisecond)
	}
	if n, _ := lines(); n < 1 || n > 2 {
		t.Fatalf("%d warnings for 50 failed handshakes in a burst, want 1 (2 if the burst spanned a second)", n)
	}
	time.Sleep(1100 * time.Millisecond) // past the pacing interval
	handshakeFails(1)
	for _, last := lines(); (last == nil || last.Data["suppressedSinceLast"] == nil) && time.Now().Before(deadline.Add(5*time.Second)); _, last = lines() {
		time.Sleep(10 * time.Millisecond)
	}
	if _, last := lines(); last == nil || last.Data["suppressedSinceLast"] == nil {
		t.Fatalf("the warning after the burst does not count the ones held back: %+v", last)
	}
}
