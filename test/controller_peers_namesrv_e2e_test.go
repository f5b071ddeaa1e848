package test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// embeddedMember is a NameServer whose embedded controller is node id of
// the group peers lists; join: it waits to be added (controllerJoinGroup).
// Its side port is on, and the accounts are aclTestFile's (admin writes
// need aclEnable).
func startEmbeddedMember(t *testing.T, id string, peers []string, join bool) *sidePort {
	t.Helper()
	dir := t.TempDir()
	accounts := filepath.Join(dir, "plain_acl.yml")
	if err := os.WriteFile(accounts, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "namesrv.properties")
	conf := fmt.Sprintf("enableControllerInNamesrv=true\ncontrollerDLegerGroup=embedded\ncontrollerDLegerPeers=%s\n"+
		"controllerDLegerSelfId=%s\ncontrollerJoinGroup=%t\ncontrollerStorePath=%s\nconfigStorePath=%s\n", strings.Join(peers, ";"), id, join,
		filepath.ToSlash(filepath.Join(dir, "ctl")), filepath.ToSlash(filepath.Join(dir, "controller.properties")))
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return startNamesrvHTTP(t, "-c", file, "-aclEnable", "-aclFile", accounts)
}

// embeddedStatus is the part of /v1/controller the membership test reads.
type embeddedStatus struct {
	Role     string `json:"role"`
	Removed  bool   `json:"removed"`
	Serving  bool   `json:"serving"`
	LeaderID string `json:"leaderId"`
	Peers    []struct {
		ID string `json:"id"`
	} `json:"peers"`
	AppliedIndex string `json:"appliedIndex"`
}

func (s *sidePort) controllerStatus(t *testing.T) embeddedStatus {
	t.Helper()
	var st embeddedStatus
	a := s.as(t, aclAdmin, http.MethodGet, "/v1/controller", nil)
	if err := json.Unmarshal([]byte(a.Body), &st); a.Status != http.StatusOK || err != nil {
		t.Fatalf("GET /v1/controller: %d %s (%v)", a.Status, a.Body, err)
	}
	return st
}

func (st embeddedStatus) ids() []string {
	var ids []string
	for _, p := range st.Peers {
		ids = append(ids, p.ID)
	}
	return ids
}

// changeMembers sends an admin's membership change to the side port.
func (s *sidePort) changeMembers(t *testing.T, method, path, body string) (int, map[string]any) {
	t.Helper()
	a := nstest.HTTPDo(t, nstest.HTTPRequest{Method: method, URL: s.base + path, User: aclAdmin.AccessKey, Pass: aclAdmin.SecretKey,
		Header: map[string]string{"X-Requested-By": "e2e"}, Body: body})
	var answer map[string]any
	if err := json.Unmarshal([]byte(a.Body), &answer); err != nil {
		t.Fatalf("%s %s: %d %q (%v)", method, path, a.Status, a.Body, err)
	}
	return a.Status, answer
}

// voterIDs are the ids of a 200 answer's voters.
func voterIDs(answer map[string]any) []string {
	var ids []string
	voters, _ := answer["voters"].([]any)
	for _, v := range voters {
		if m, ok := v.(map[string]any); ok {
			ids = append(ids, fmt.Sprint(m["id"]))
		}
	}
	return ids
}

// Issue 38 item 4 on the NameServer's side port: a 1-node group embedded in
// a NameServer grows by a second NameServer's controller through POST
// /v1/controller/peers on the leader's side port; the new node follows n0
// with n0's entries, a follower's side port answers 409 naming the leader,
// and DELETE /v1/controller/peers/n1 shrinks the group back (the removed
// node says so).
func TestEmbeddedControllerMembershipOnTheNameServerSidePort(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1, 1000, 1001)
	if !ok {
		t.Fatal("no free ports")
	}
	var peers []string
	for i := range 2 {
		peers = append(peers, fmt.Sprintf("n%d-%s", i, net.JoinHostPort("127.0.0.1", strconv.Itoa(base+i))))
	}
	ns0 := startEmbeddedMember(t, "n0", peers[:1], false)
	ns1 := startEmbeddedMember(t, "n1", peers, true)
	// Serving, not only Leader: a new leader answers 409 until its first
	// entry (the barrier) commits.
	eventually(t, 30*time.Second, "n0 leads and serves", func() error {
		if st := ns0.controllerStatus(t); st.Role != "Leader" || !st.Serving {
			return fmt.Errorf("n0 %+v", st)
		}
		return nil
	})

	start := time.Now()
	status, answer := ns0.changeMembers(t, http.MethodPost, "/v1/controller/peers", fmt.Sprintf(`{"peer":%q}`, peers[1]))
	if status != http.StatusOK || !slices.Equal(voterIDs(answer), []string{"n0", "n1"}) {
		t.Fatalf("POST peers on the leader's side port: %d %v", status, answer)
	}
	eventually(t, 30*time.Second, "n1 follows n0 with its entries", func() error {
		st0, st1 := ns0.controllerStatus(t), ns1.controllerStatus(t)
		if st1.Role != "Follower" || st1.LeaderID != "n0" || !slices.Equal(st1.ids(), []string{"n0", "n1"}) ||
			!slices.Equal(st0.ids(), []string{"n0", "n1"}) || st1.AppliedIndex != st0.AppliedIndex {
			return fmt.Errorf("n0 %+v, n1 %+v", st0, st1)
		}
		return nil
	})
	t.Logf("n1 added and caught up in %s", time.Since(start).Round(time.Millisecond))
	if status, answer := ns1.changeMembers(t, http.MethodPost, "/v1/controller/peers", fmt.Sprintf(`{"peer":%q}`, peers[1])); status != http.StatusConflict ||
		answer["leaderId"] != "n0" || answer["leaderAddress"] != strings.TrimPrefix(peers[0], "n0-") {
		t.Fatalf("POST peers on a follower's side port: %d %v", status, answer)
	}

	// A 2-node group on a loaded host may change its leader: the DELETE
	// goes to whichever side port leads.
	var removed map[string]any
	eventually(t, 30*time.Second, "the leader's side port removes n1", func() error {
		for _, ns := range []*sidePort{ns0, ns1} {
			status, answer := ns.changeMembers(t, http.MethodDelete, "/v1/controller/peers/n1", "")
			if status == http.StatusOK {
				removed = answer
				return nil
			}
			if status != http.StatusConflict {
				t.Fatalf("DELETE peers/n1: %d %v", status, answer)
			}
		}
		return fmt.Errorf("no side port leads")
	})
	if ids := voterIDs(removed); !slices.Equal(ids, []string{"n0"}) {
		t.Fatalf("voters after the DELETE: %v", removed)
	}
	eventually(t, 30*time.Second, "n1 out of the group", func() error {
		st0, st1 := ns0.controllerStatus(t), ns1.controllerStatus(t)
		if !st1.Removed || !slices.Equal(st0.ids(), []string{"n0"}) {
			return fmt.Errorf("n0 %+v, n1 %+v", st0, st1)
		}
		return nil
	})
}
