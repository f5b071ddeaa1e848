package nstest

import (
	"net"
	"net/http"
	"testing"
)

// serveOnLoopback serves h on a free loopback port until the test ends and
// returns its base URL.
func serveOnLoopback(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + l.Addr().String()
}

// TestHTTPGetReturnsStatusAndBody against a real server on loopback.
func TestHTTPGetReturnsStatusAndBody(t *testing.T) {
	base := serveOnLoopback(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("short and stout"))
	})
	if status, body := HTTPGet(t, base+"/"); status != http.StatusTeapot || body != "short and stout" {
		t.Fatalf("got %d %q", status, body)
	}
	if msg := fatalMessage(t, func(tb testing.TB) { HTTPGet(tb, "http://127.0.0.1:1/") }); msg == "" {
		t.Fatal("a refused connection did not fail the test")
	}
}
