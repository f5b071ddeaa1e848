package ctltest

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The controller's own encoding of a 1006 answer is what aliveAddrs reads:
// alive replicas in and out of sync count, dead ones and error answers not.
func TestAliveAddrsReadsTheControllersAnswer(t *testing.T) {
	info := wire.BrokerReplicasInfo{ReplicasInfoTable: map[string]wire.ReplicasInfo{
		"b1": {
			InSyncReplicas:    []wire.ReplicaIdentity{{Alive: true, BrokerAddress: "127.0.0.1:1", BrokerID: 1, BrokerName: "b1"}},
			NotInSyncReplicas: []wire.ReplicaIdentity{{Alive: true, BrokerAddress: "127.0.0.1:2", BrokerID: 2, BrokerName: "b1"}, {Alive: false, BrokerAddress: "127.0.0.1:3", BrokerID: 3, BrokerName: "b1"}},
		},
	}}
	resp := &remoting.Command{Code: 0, Body: info.Encode()}
	alive := aliveAddrs(resp)
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "127.0.0.1:2": true, "127.0.0.1:3": false} {
		if alive[addr] != want {
			t.Errorf("alive[%s] = %v, want %v (body %s)", addr, alive[addr], want, resp.Body)
		}
	}
	resp.Code = 2006
	if got := aliveAddrs(resp); len(got) != 0 {
		t.Errorf("an error answer gave %v alive", got)
	}
}
