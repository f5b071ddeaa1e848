package node

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

type httpAnswer struct {
	status int
	body   string
}

func postLeader(t *testing.T, url string, cred *aclsign.Credentials, csrf bool, body string) httpAnswer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		req.SetBasicAuth(cred.AccessKey, cred.SecretKey)
	}
	if csrf {
		req.Header.Set(CSRFHeader, "test")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(resp.Body)
	return httpAnswer{resp.StatusCode, string(text)}
}

// POST /v1/controller/leader is refused without ACL, without the CSRF
// header, without credentials and to a user; an admin's moves the lead to
// the query's target or the body's targetId, on the leader's side port or
// a follower's (which forwards it signed with its own credentials).
func TestTransferEndpointIsAdminOnly(t *testing.T) {
	open := startGroup(t, 1, nil)
	open.leader(t)
	srv := httptest.NewServer(open.svcs[0].Node.HTTPHandler())
	defer srv.Close()
	if a := postLeader(t, srv.URL+"/v1/controller/leader", &testAdmin, true, ""); a.status != http.StatusForbidden || !strings.Contains(a.body, "ACL is off") {
		t.Fatalf("without ACL: %+v", a)
	}

	aclOn := withACL(t, "")
	g := startGroup(t, 3, func(c *config.Config) {
		aclOn(c)
		c.AccessKey, c.SecretKey = testAdmin.AccessKey, testAdmin.SecretKey
	})
	old := g.leader(t)
	servers := make([]*httptest.Server, 3)
	for i, s := range g.svcs {
		servers[i] = httptest.NewServer(s.Node.HTTPHandler())
		defer servers[i].Close()
	}
	url := servers[old].URL + "/v1/controller/leader"
	for _, c := range []struct {
		cred   *aclsign.Credentials
		csrf   bool
		status int
	}{{&testAdmin, false, http.StatusForbidden}, {nil, true, http.StatusUnauthorized},
		{&aclsign.Credentials{AccessKey: "adminKey01", SecretKey: "wrong"}, true, http.StatusUnauthorized},
		{&testUser, true, http.StatusForbidden}} {
		if a := postLeader(t, url, c.cred, c.csrf, ""); a.status != c.status {
			t.Errorf("cred %v csrf %v: %+v, want %d", c.cred, c.csrf, a, c.status)
		}
	}
	if now := g.leader(t); now != old {
		t.Fatalf("a refused request moved the lead to n%d", now)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	if a := postLeader(t, url+"?target=n7", &testAdmin, true, ""); a.status != http.StatusBadRequest || !strings.Contains(a.body, "the voters are n0, n1, n2") {
		t.Fatalf("unknown target: %+v", a)
	}

	target := (old + 1) % 3
	a := postLeader(t, url+fmt.Sprintf("?target=n%d", target), &testAdmin, true, "")
	var res wire.TransferLeaderResponse
	if err := json.Unmarshal([]byte(a.body), &res); a.status != http.StatusOK || err != nil || res.NewLeaderID != fmt.Sprintf("n%d", target) ||
		res.OldLeaderID != fmt.Sprintf("n%d", old) || !g.svcs[target].Node.Serving() {
		t.Fatalf("admin transfer by query: %+v (%v)", a, err)
	}
	// Asked of a follower (the old leader now), with the target in the body.
	back := fmt.Sprintf(`{"targetId": "n%d"}`, old)
	a = postLeader(t, servers[old].URL+"/v1/controller/leader", &testAdmin, true, back)
	if err := json.Unmarshal([]byte(a.body), &res); a.status != http.StatusOK || err != nil || res.NewLeaderID != fmt.Sprintf("n%d", old) ||
		res.OldLeaderID != fmt.Sprintf("n%d", target) {
		t.Fatalf("admin transfer forwarded by a follower: %+v (%v)", a, err)
	}
}

// 5021 is an admin write: unsigned and user-signed requests are refused 16.
func TestTransferCodeIsAnAdminWrite(t *testing.T) {
	g := startGroup(t, 1, withACL(t, ""))
	addr := g.addrs[g.leader(t)]
	for _, cred := range []aclsign.Credentials{{}, testUser} {
		if resp := call(t, addr, cred, wire.CodeTransferControllerLeader, map[string]string{"targetId": "n0"}, nil); resp.Code != remoting.NO_PERMISSION {
			t.Errorf("5021 signed by %q: %d %q, want 16", cred.AccessKey, resp.Code, resp.Remark)
		}
	}
	if resp := call(t, addr, testAdmin, wire.CodeTransferControllerLeader, map[string]string{"targetId": "n0"}, nil); resp.Code != 0 {
		t.Fatalf("admin 5021: %d %q", resp.Code, resp.Remark)
	}
}
