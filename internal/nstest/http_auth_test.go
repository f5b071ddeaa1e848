package nstest

import (
	"net/http"
	"testing"
)

// TestHTTPDoSendsMethodCredentialsAndHeaders against a real server on loopback.
func TestHTTPDoSendsMethodCredentialsAndHeaders(t *testing.T) {
	base := serveOnLoopback(t, func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		w.Header().Set("X-Seen", r.Method+" "+user+":"+pass+" "+r.Header.Get("X-Requested-By"))
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("body"))
	})
	a := HTTPDo(t, HTTPRequest{Method: http.MethodPost, URL: base + "/x", User: "u", Pass: "p",
		Header: map[string]string{"X-Requested-By": "test"}})
	if a.Status != http.StatusTeapot || a.Body != "body" || a.Header.Get("X-Seen") != "POST u:p test" {
		t.Fatalf("answer %+v", a)
	}
	if _, err := TryHTTP(HTTPRequest{URL: "http://127.0.0.1:1/"}); err == nil {
		t.Fatal("a refused connection gave no error")
	}
}
