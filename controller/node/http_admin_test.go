package node

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The side port's admin guard refuses a browser request of another origin
// even with an admin's credentials and the CSRF header, and takes one of
// its own origin; it never reaches the handler when it refuses.
func TestAdminGuardRefusesAnotherOrigin(t *testing.T) {
	g := startGroup(t, 1, withACL(t, ""))
	g.leader(t)
	reached := 0
	h := g.svcs[0].Node.adminWrite(func(w http.ResponseWriter, _ *http.Request) { reached++; w.WriteHeader(http.StatusNoContent) })
	try := func(origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:11878/v1/controller/leader", nil)
		req.RemoteAddr = "127.0.0.1:5000"
		req.SetBasicAuth(testAdmin.AccessKey, testAdmin.SecretKey)
		req.Header.Set(CSRFHeader, "x")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := try("http://evil.example"); rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "cross-origin") || reached != 0 {
		t.Fatalf("other origin: %d %q, reached %d", rec.Code, rec.Body, reached)
	}
	if rec := try("http://127.0.0.1:11878"); rec.Code != http.StatusNoContent || reached != 1 {
		t.Fatalf("same origin: %d %q, reached %d", rec.Code, rec.Body, reached)
	}
}
