package httpapi

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// POST /v1/controller/leader on the NameServer's side port is an admin
// write (refused to a user, without the CSRF header, by GET), 404 without
// an embedded controller, and an admin's request reaches the controller's
// TransferLeader, whose status and JSON it answers (the transfer itself:
// controller/node's TestTransferEndpointIsAdminOnly).
func TestControllerLeaderEndpointIsAnAdminWrite(t *testing.T) {
	s := startSidePort(t)
	attachedSource(t, s, testChecker(t, true), &drains{})
	url := "http://" + s.Addr().String() + "/v1/controller/leader"
	csrf := map[string]string{CSRFHeader: "test"}
	post := func(user, pass string, header map[string]string) nstest.HTTPAnswer {
		return nstest.HTTPDo(t, nstest.HTTPRequest{Method: http.MethodPost, URL: url + "?target=n1", User: user, Pass: pass, Header: header})
	}
	if a := post("adminKey1", "adminSecret1", csrf); a.Status != http.StatusNotFound || !strings.Contains(a.Body, "enableControllerInNamesrv=false") {
		t.Fatalf("without a controller: %+v", a)
	}
	var mu sync.Mutex
	var targets []string
	s.AttachController(Controller{Status: func() any { return nil }, TransferLeader: func(r *http.Request) (int, any) {
		mu.Lock()
		defer mu.Unlock()
		targets = append(targets, r.URL.Query().Get("target"))
		return http.StatusOK, map[string]string{"newLeaderId": "n1"}
	}})
	if a := post("userKey1", "userSecret1", csrf); a.Status != http.StatusForbidden {
		t.Fatalf("user: %+v", a)
	}
	if a := post("adminKey1", "adminSecret1", nil); a.Status != http.StatusForbidden || !strings.Contains(a.Body, CSRFHeader) {
		t.Fatalf("no CSRF header: %+v", a)
	}
	if a := nstest.HTTPDo(t, nstest.HTTPRequest{URL: url, User: "adminKey1", Pass: "adminSecret1", Header: csrf}); a.Status != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %+v", a)
	}
	if len(targets) != 0 {
		t.Fatalf("a refused request reached the controller: %v", targets)
	}
	if a := post("adminKey1", "adminSecret1", csrf); a.Status != http.StatusOK || !strings.Contains(a.Body, `"newLeaderId":"n1"`) {
		t.Fatalf("admin: %+v", a)
	}
	if len(targets) != 1 || targets[0] != "n1" {
		t.Fatalf("the controller saw %v", targets)
	}
}
