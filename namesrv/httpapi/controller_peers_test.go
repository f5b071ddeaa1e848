package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/controller/node/nodetest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// sendBody is a request of method with body and an account's Basic
// credentials (none: anonymous), with or without the CSRF header.
func sendBody(t *testing.T, method, url, user, pass string, csrf bool, body string) nstest.HTTPAnswer {
	t.Helper()
	req := nstest.HTTPRequest{Method: method, URL: url, User: user, Pass: pass, Body: body}
	if csrf {
		req.Header = map[string]string{CSRFHeader: "test"}
	}
	return nstest.HTTPDo(t, req)
}

// POST /v1/controller/peers and DELETE /v1/controller/peers/{id} on the
// NameServer's side port: 404 without an embedded controller; admin writes
// refused to an anonymous caller, a user, without the CSRF header, with the
// status /v1/controller/leader gives; 405 to other methods; an admin's
// request reaches a real embedded node, whose answers come back as
// cmd/controller's side port gives them (400 for a body past the bound, a
// malformed peer or a refused change, 200 with the voters), and the log
// names who asked.
func TestControllerPeersEndpointsAreAdminWrites(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	s, err := New("127.0.0.1:0", logrus.NewEntry(logger), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shutdownAtCleanup(t, s)
	attachedSource(t, s, testChecker(t, true), &drains{})
	base := "http://" + s.Addr().String() + "/v1/controller"
	add, remove := base+"/peers", base+"/peers/n7"
	const admin, adminPass = "adminKey1", "adminSecret1"
	for _, url := range []string{add, remove} {
		method := map[string]string{add: http.MethodPost, remove: http.MethodDelete}[url]
		if a := sendBody(t, method, url, admin, adminPass, true, `{"peer":"n1-127.0.0.1:9"}`); a.Status != http.StatusNotFound ||
			!strings.Contains(a.Body, "enableControllerInNamesrv=false") {
			t.Fatalf("%s %s without a controller: %+v", method, url, a)
		}
	}

	svc, _ := nodetest.StartOne(t)
	n := svc.Node
	s.AttachController(Controller{Status: func() any { return n.Status() }, TransferLeader: n.TransferLeaderHTTP,
		AddPeer: n.AddPeerHTTP, RemovePeer: n.RemovePeerHTTP})
	for _, c := range []struct {
		name, user, pass string
		csrf             bool
		want             int
	}{
		{"anonymous", "", "", true, http.StatusUnauthorized},
		{"a user", "userKey1", "userSecret1", true, http.StatusForbidden},
		{"a wrong secret", admin, "wrong", true, http.StatusUnauthorized},
		{"no CSRF header", admin, adminPass, false, http.StatusForbidden},
	} {
		leader := sendBody(t, http.MethodPost, base+"/leader", c.user, c.pass, c.csrf, "")
		a := sendBody(t, http.MethodPost, add, c.user, c.pass, c.csrf, `{"peer":"n1-127.0.0.1:9"}`)
		d := sendBody(t, http.MethodDelete, base+"/peers/n0", c.user, c.pass, c.csrf, "")
		if leader.Status != c.want || a.Status != c.want || d.Status != c.want {
			t.Errorf("%s: leader %d, POST peers %d (%s), DELETE peers %d (%s); want %d", c.name, leader.Status, a.Status, a.Body,
				d.Status, d.Body, c.want)
		}
	}
	for _, c := range []struct{ method, url, allow string }{
		{http.MethodGet, add, http.MethodPost}, {http.MethodDelete, add, http.MethodPost},
		{http.MethodGet, remove, http.MethodDelete}, {http.MethodPost, remove, http.MethodDelete},
	} {
		if a := sendBody(t, c.method, c.url, admin, adminPass, true, ""); a.Status != http.StatusMethodNotAllowed || a.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d Allow %q, want 405 Allow %s", c.method, c.url, a.Status, a.Header.Get("Allow"), c.allow)
		}
	}
	if voters := fmt.Sprint(n.Status().Peers); !strings.Contains(voters, "n0") || strings.Contains(voters, "n1") {
		t.Fatalf("a refused request changed the members: %s", voters)
	}

	for _, c := range []struct {
		method, url, body, want string
		status                  int
	}{
		{http.MethodPost, add, `{"peer":"` + strings.Repeat("x", 5<<10) + `"}`, "request body too large", http.StatusBadRequest},
		{http.MethodPost, add, `peer=n1`, `want {\"peer\":\"id-host:port\"}`, http.StatusBadRequest},
		{http.MethodPost, add, `{"peer":"n1"}`, "want id-host:port", http.StatusBadRequest},
		{http.MethodDelete, remove, "", "n7 is not a member", http.StatusBadRequest},
		{http.MethodDelete, base + "/peers/n0", "", "n0 is the only member", http.StatusBadRequest},
		{http.MethodPost, add, `{"peer":"n0-` + n.Self().Addr + `"}`, `"voters":[{"id":"n0"`, http.StatusOK},
	} {
		if a := sendBody(t, c.method, c.url, admin, adminPass, true, c.body); a.Status != c.status || !strings.Contains(a.Body, c.want) {
			t.Errorf("%s %s %.40q: %d %s, want %d with %q", c.method, c.url, c.body, a.Status, a.Body, c.status, c.want)
		}
	}
	asked := 0
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "controller membership change asked") && e.Data["accessKey"] == admin && e.Data["remote"] != "" {
			asked++
		}
	}
	if asked != 6 {
		t.Fatalf("%d log lines naming the admin who asked, want 6", asked)
	}
}
