package nstest

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// httpClient bounds every HTTP call of the tests.
var httpClient = &http.Client{Timeout: 10 * time.Second}

// HTTPGet returns the status and body of GET url, failing the test when the
// request cannot be made.
func HTTPGet(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := httpClient.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: read body: %v", url, err)
	}
	return resp.StatusCode, string(body)
}
