package nstest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// HTTPRequest is one call of the side port's tests: method, URL, Basic
// credentials when User is set, extra headers, the body ("": none).
type HTTPRequest struct {
	Method, URL string
	User, Pass  string
	Header      map[string]string
	Body        string
	// Client defaults to a 10 s bounded plain client.
	Client *http.Client
}

// HTTPAnswer is what came back.
type HTTPAnswer struct {
	Status int
	Header http.Header
	Body   string
}

// HTTPDo makes req, failing the test when it cannot be made.
func HTTPDo(t testing.TB, req HTTPRequest) HTTPAnswer {
	t.Helper()
	answer, err := TryHTTP(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	return answer
}

// TryHTTP makes req and returns the error of a call that could not be made.
func TryHTTP(req HTTPRequest) (HTTPAnswer, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	r, err := http.NewRequest(method, req.URL, strings.NewReader(req.Body))
	if err != nil {
		return HTTPAnswer{}, err
	}
	if req.User != "" {
		r.SetBasicAuth(req.User, req.Pass)
	}
	for k, v := range req.Header {
		r.Header.Set(k, v)
	}
	client := req.Client
	if client == nil {
		client = httpClient
	}
	resp, err := client.Do(r)
	if err != nil {
		return HTTPAnswer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return HTTPAnswer{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}, err
}
