package nodetest

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/config"
)

// StartOne's node leads its 1-node group at the address it returns, with
// the short Raft timeouts, no side port and a store of its own.
func TestStartOneServes(t *testing.T) {
	svc, addr := StartOne(t)
	st := svc.Node.Status()
	if !svc.Node.Serving() || st.Role != "Leader" || st.LeaderID != "n0" || st.LeaderAddress != addr || len(st.Peers) != 1 {
		t.Fatalf("status %+v, want n0 leading alone at %s", st, addr)
	}
	c := svc.Node.Config()
	if c.RaftElectionTimeoutMillis != RaftTimeoutMillis || c.HTTPListenPort != -1 || !strings.HasPrefix(c.ConfigStorePath, c.ControllerStorePath) ||
		c.ControllerStorePath == config.Default().ControllerStorePath {
		t.Fatalf("config %+v", c)
	}
}
