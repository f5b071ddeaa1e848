package broker

import (
	"encoding/json"
	"testing"

	"github.com/gonamesrv/gonamesrv/broker/admin"
)

func TestHAStatusSaysRoleAndMaster(t *testing.T) {
	ns := startFakeNameServer(t)
	master, masterClient := startTestBroker(t, testBrokerConfig(t, ns.srv.Addr().String(), 0))
	waitFor(t, "master registration", func() bool { return ns.topicsOf(master.Addr())["TBW102"].TopicName == "TBW102" })
	slave, slaveClient := startTestBroker(t, testBrokerConfig(t, ns.srv.Addr().String(), 1))
	waitFor(t, "slave learns its master", func() bool { return slave.MasterAddr() == master.Addr() })

	resp := invoke(t, masterClient, admin.CodeGetBrokerHAStatus, "")
	if string(resp.Body) != `{"haClientRuntimeInfo":{"lastReadTimestamp":0,"lastWriteTimestamp":0,"masterFlushOffset":0,"maxOffset":0,"transferredByteInSecond":0},"haConnectionInfo":[],"inSyncSlaveNums":0,"master":true,"masterCommitLogMaxOffset":0}` {
		t.Fatalf("master answered %d %s", resp.Code, resp.Body)
	}
	resp = invoke(t, slaveClient, admin.CodeGetBrokerHAStatus, "")
	var info admin.HARuntimeInfo
	if err := json.Unmarshal(resp.Body, &info); err != nil || info.Master || info.HAClientRuntimeInfo.MasterAddr != master.Addr() {
		t.Fatalf("slave answered %s (%v), want master=false and masterAddr %s", resp.Body, err, master.Addr())
	}
}
