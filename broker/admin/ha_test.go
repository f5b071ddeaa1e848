package admin

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// The answer is Java's HARuntimeInfo JSON: members in fastjson's order, an
// empty connection list as [], masterAddr left out while unknown.
func TestHAStatusResponseIsJavasJSON(t *testing.T) {
	req := remoting.NewRequest(CodeGetBrokerHAStatus, nil, nil)
	resp := haStatusResponse(req, HARuntimeInfo{HAClientRuntimeInfo: HAClientRuntimeInfo{MasterAddr: "h:1"}})
	want := `{"haClientRuntimeInfo":{"lastReadTimestamp":0,"lastWriteTimestamp":0,"masterAddr":"h:1","masterFlushOffset":0,"maxOffset":0,"transferredByteInSecond":0},"haConnectionInfo":[],"inSyncSlaveNums":0,"master":false,"masterCommitLogMaxOffset":0}`
	if resp.Code != remoting.SUCCESS || string(resp.Body) != want {
		t.Fatalf("%d %s\nwant %s", resp.Code, resp.Body, want)
	}
}
