package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node/nodetest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// addControllerPeer grows a 1-node group by a node that joins
// (controllerJoinGroup) and prints both voters; removeControllerPeer of a
// member that is not there exits non-zero naming why; removing the new one
// prints the one voter left.
func TestAddAndRemoveControllerPeer(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1, 1000, 1001)
	if !ok {
		t.Skip("no free loopback ports")
	}
	peers := []string{fmt.Sprintf("n0-127.0.0.1:%d", base), fmt.Sprintf("n1-127.0.0.1:%d", base+1)}
	for i := range 2 {
		nodetest.Start(t, func(c *config.Config) {
			c.ControllerDLegerPeers, c.ControllerDLegerSelfID = strings.Join(peers[:i+1], ";"), fmt.Sprintf("n%d", i)
			c.JoinGroup = i == 1
		})
	}
	addr := fmt.Sprintf("127.0.0.1:%d", base)
	var stdout, stderr string
	var code int
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// Until n0 leads, 1005 names no leader.
		if stdout, stderr, code = runCapture("addControllerPeer", "-a", addr, "-p", peers[1]); code == 0 {
			break
		}
	}
	if code != 0 || !strings.Contains(stdout, "#Voter:\t"+peers[0]+"\t") || !strings.Contains(stdout, "#Voter:\t"+peers[1]+"\t") {
		t.Fatalf("add: exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = runCapture("removeControllerPeer", "-a", addr, "-i", "n7")
	if code == 0 || !strings.Contains(stderr, "n7 is not a member") {
		t.Fatalf("removing a non-member: exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = runCapture("removeControllerPeer", "-a", addr, "-i", "n1", "-json")
	if code != 0 || !strings.Contains(stdout, `"id": "n0"`) || strings.Contains(stdout, `"n1"`) {
		t.Fatalf("remove: exit %d\n%s\n%s", code, stdout, stderr)
	}
}
