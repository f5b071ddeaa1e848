package nstest

import (
	"net"
	"net/http"
	"testing"
)

// TestHTTPGetReturnsStatusAndBody against a real server on loopback.
func TestHTTPGetReturnsStatusAndBody(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("short and stout"))
	})}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	if status, body := HTTPGet(t, "http://"+l.Addr().String()+"/"); status != http.StatusTeapot || body != "short and stout" {
		t.Fatalf("got %d %q", status, body)
	}
	if msg := fatalMessage(t, func(tb testing.TB) { HTTPGet(tb, "http://127.0.0.1:1/") }); msg == "" {
		t.Fatal("a refused connection did not fail the test")
	}
}
