package nstest

import (
	"net"
	"net/http"
	"testing"
)

// TestHTTPDoSendsMethodCredentialsAndHeaders against a real server on loopback.
func TestHTTPDoSendsMethodCredentialsAndHeaders(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		w.Header().Set("X-Seen", r.Method+" "+user+":"+pass+" "+r.Header.Get("X-Requested-By"))
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("body"))
	})}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
	a := HTTPDo(t, HTTPRequest{Method: http.MethodPost, URL: "http://" + l.Addr().String() + "/x", User: "u", Pass: "p",
		Header: map[string]string{"X-Requested-By": "test"}})
	if a.Status != http.StatusTeapot || a.Body != "body" || a.Header.Get("X-Seen") != "POST u:p test" {
		t.Fatalf("answer %+v", a)
	}
	if _, err := TryHTTP(HTTPRequest{URL: "http://127.0.0.1:1/"}); err == nil {
		t.Fatal("a refused connection gave no error")
	}
}
