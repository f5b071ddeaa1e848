package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// transferControllerLeader prints the leader's answer (old and new leader,
// the window) and exits 0; an unknown target exits 1 with the controller's
// 2005 naming the voters. A 1-node group's only voter already leads, so
// naming it moves nothing (the 3-node transfer is test/'s
// TestTransferControllerLeaderCommand, on the real binaries).
func TestTransferControllerLeaderPrintsTheAnswer(t *testing.T) {
	addr, _ := startController(t)
	var stdout, stderr string
	var code int
	for range 400 { // until the single node leads and serves (20 s at most)
		if stdout, stderr, code = runCapture("transferControllerLeader", "-a", addr, "-t", "n0"); code == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	want := "\n#OldLeaderId\tn0\n#OldLeaderAddress\t" + addr + "\n#NewLeaderId\tn0\n#NewLeaderAddress\t" + addr + "\n#WindowMillis\t0\n#AnsweredMillis\t"
	if code != 0 || !strings.HasPrefix(stdout, want) {
		t.Fatalf("exit %d\nstdout %q\nwant prefix %q\nstderr %q", code, stdout, want, stderr)
	}
	stdout, _, code = runCapture("transferControllerLeader", "-a", addr, "-t", "n0", "-json")
	var res wire.TransferLeaderResponse
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || res.NewLeaderID != "n0" || res.NewLeaderAddress != addr {
		t.Fatalf("-json: exit %d %q (%v)", code, stdout, err)
	}
	stdout, stderr, code = runCapture("transferControllerLeader", "-a", addr, "-t", "n5")
	if code != 1 || stdout != "" || !strings.Contains(stderr, `CODE: 2005  DESC: unknown controller node id "n5": the voters are n0`) {
		t.Fatalf("unknown target: exit %d %q %q", code, stdout, stderr)
	}
}
