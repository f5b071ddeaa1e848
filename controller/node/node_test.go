package node

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// group is n in-process controller nodes on loopback.
type group struct {
	cfgs  []*config.Config
	svcs  []*Service
	addrs []string
}

func groupConfigs(t *testing.T, size int, tweak func(*config.Config)) []*config.Config {
	t.Helper()
	offsets := make([]int, 0, 2*size)
	for i := range size {
		offsets = append(offsets, i, 1000+i)
	}
	base, ok := nstest.FreePorts(offsets...)
	if !ok {
		t.Skip("no free loopback ports")
	}
	var peers []string
	for i := range size {
		peers = append(peers, fmt.Sprintf("n%d-127.0.0.1:%d", i, base+i))
	}
	store := t.TempDir()
	cfgs := make([]*config.Config, size)
	for i := range size {
		c := config.Default()
		c.ControllerDLegerGroup = "group-test"
		c.ControllerDLegerPeers = strings.Join(peers, ";")
		c.ControllerDLegerSelfID = fmt.Sprintf("n%d", i)
		c.ControllerStorePath = store
		c.ConfigStorePath = filepath.Join(store, fmt.Sprintf("controller-n%d.properties", i))
		c.RaftHeartbeatTimeoutMillis, c.RaftElectionTimeoutMillis = 300, 300
		c.ScanNotActiveBrokerInterval, c.ScanInactiveMasterInterval = 200, 200
		c.HTTPListenPort = -1
		if tweak != nil {
			tweak(c)
		}
		cfgs[i] = c
	}
	return cfgs
}

func startGroup(t *testing.T, size int, tweak func(*config.Config)) *group {
	t.Helper()
	g := &group{cfgs: groupConfigs(t, size, tweak)}
	for _, c := range g.cfgs {
		self, _ := c.Self()
		g.addrs = append(g.addrs, self.Addr)
	}
	for i := range g.cfgs {
		g.start(t, i)
	}
	return g
}

func (g *group) start(t *testing.T, i int) {
	t.Helper()
	svc, err := Start(g.cfgs[i], testlog.Warnings())
	if err != nil {
		t.Fatalf("start node %d: %v", i, err)
	}
	for len(g.svcs) <= i {
		g.svcs = append(g.svcs, nil)
	}
	g.svcs[i] = svc
	t.Cleanup(func() { g.stop(t, i) })
}

func (g *group) stop(t *testing.T, i int) {
	if g.svcs[i] == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := g.svcs[i].Shutdown(ctx); err != nil {
		t.Logf("stop node %d: %v", i, err)
	}
	g.svcs[i] = nil
}

// leader waits (20 s at most: a hung group, not a timing assertion) for a
// serving leader.
func (g *group) leader(t *testing.T) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for i, s := range g.svcs {
			if s != nil && s.Node.Serving() {
				return i
			}
		}
	}
	t.Fatal("no serving leader")
	return -1
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func invoke(t *testing.T, addr string, code int32, header any, body []byte) *remoting.Command {
	t.Helper()
	return nstest.Invoke(t, nstest.NewClient(t, addr), remoting.NewRequest(code, remoting.EncodeHeader(header), body))
}

func TestSingleNodeRegistersElectsAltersAndReelectsOnClose(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	b1 := ctltest.NewBroker(t, "cluster-a", "broker-set-a", g.addrs)
	b2 := ctltest.NewBroker(t, "cluster-a", "broker-set-a", g.addrs)
	reg := b1.Register(t)
	if _, ok := reg.Ext("masterBrokerId"); ok || b1.ID != 1 {
		t.Fatalf("first register: id %d ext %v, want id 1 and no master", b1.ID, reg.ExtFields)
	}
	b2.Register(t)
	if b2.ID != 2 {
		t.Fatalf("second broker got id %d, want 2", b2.ID)
	}
	b1.Heartbeat(t, 0, 100, 10000)
	b2.Heartbeat(t, 0, 100, 10000)
	waitFor(t, "both heartbeats", func() bool { return g.svcs[0].Node.live.size() == 2 })

	elect := b1.Elect(t)
	ctltest.MustCode(t, elect, 0)
	var eh wire.ElectMasterResponse
	if err := remoting.DecodeHeader(elect, &eh); err != nil {
		t.Fatal(err)
	}
	if *eh.MasterBrokerID != 1 || *eh.MasterEpoch != 1 || *eh.SyncStateSetEpoch != 1 || *eh.MasterAddress != b1.Addr {
		t.Fatalf("elect header %v", elect.ExtFields)
	}
	if want := fmt.Sprintf(`{"brokerMemberGroup":{"brokerAddrs":{1:"%s",2:"%s"},"brokerName":"broker-set-a","cluster":"cluster-a"},"syncStateSet":[1]}`,
		b1.Addr, b2.Addr); string(elect.Body) != want {
		t.Fatalf("elect body %s, want %s", elect.Body, want)
	}
	notice, ok := b2.Notice(10 * time.Second)
	if !ok || notice.ExtFields["masterBrokerId"] != "1" || notice.ExtFields["masterEpoch"] != "1" {
		t.Fatalf("b2's role change notice: %v %v", ok, notice)
	}
	ctltest.MustCode(t, b2.Elect(t), controller.CodeMasterStillExist)

	alter := b1.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: b1.Name, MasterBrokerID: 1, MasterEpoch: 1},
		(&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode())
	ctltest.MustCode(t, alter, 0)
	if alter.ExtFields["newSyncStateSetEpoch"] != "2" || string(alter.Body) != `{"syncStateSet":[1,2],"syncStateSetEpoch":2}` {
		t.Fatalf("alter answer %v %s", alter.ExtFields, alter.Body)
	}
	stale := b1.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: b1.Name, MasterBrokerID: 1, MasterEpoch: 1},
		(&wire.SyncStateSet{SyncStateSet: []int64{1}, SyncStateSetEpoch: 1}).Encode())
	ctltest.MustCode(t, stale, controller.CodeFencedSyncStateSetEpoch)

	sync := invoke(t, g.addrs[0], wire.CodeGetSyncStateData, nil, []byte(`["broker-set-a","unknown"]`))
	ctltest.MustCode(t, sync, 0)
	if !strings.Contains(string(sync.Body), `"inSyncReplicas":[{"alive":true,"brokerAddress":"`+b1.Addr+`","brokerId":1`) ||
		strings.Contains(string(sync.Body), "unknown") {
		t.Fatalf("1006 body %s", sync.Body)
	}
	ctltest.MustCode(t, invoke(t, g.addrs[0], wire.CodeGetSyncStateData, nil, nil), remoting.SYSTEM_ERROR)

	md, err := b1.Metadata(g.addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	if md.Group != "group-test" || md.ControllerLeaderID != "n0" || md.ControllerLeaderAddress != g.addrs[0] || !md.IsLeader ||
		md.Peers != "n0:"+g.addrs[0]+";" {
		t.Fatalf("metadata %+v", md)
	}
	noID := invoke(t, g.addrs[0], wire.CodeBrokerHeartbeat, &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: "x", BrokerAddr: "127.0.0.1:1"}, nil)
	if noID.Code != controller.CodeInvalidRequest || noID.Remark != controller.RemarkHeartbeatNoBrokerID {
		t.Fatalf("heartbeat without brokerId: %d %q", noID.Code, noID.Remark)
	}
	missing := invoke(t, g.addrs[0], wire.CodeGetReplicaInfo, nil, nil)
	if missing.Code != remoting.SYSTEM_ERROR || !strings.Contains(missing.Remark, "brokerName") {
		t.Fatalf("missing brokerName: %d %q", missing.Code, missing.Remark)
	}

	// The master's connection closes: broker 2, in sync and alive, is
	// elected at once and told so.
	b1.Close()
	notice, ok = b2.Notice(10 * time.Second)
	if !ok || notice.ExtFields["masterBrokerId"] != "2" || notice.ExtFields["masterEpoch"] != "2" {
		t.Fatalf("after the master's close, b2's notice: %v %v", ok, notice)
	}
	info, sss := b2.ReplicaInfo(t)
	if *info.MasterBrokerID != 2 || *info.MasterEpoch != 2 || fmt.Sprint(sss.SyncStateSet) != "[2]" {
		t.Fatalf("replica info after re-election: master %s epoch %d sss %v", ctltest.Int64(info.MasterBrokerID), *info.MasterEpoch, sss)
	}
}

func TestSilentMasterIsReplacedAfterItsHeartbeatExpires(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	b1 := ctltest.NewBroker(t, "cluster-a", "broker-set-b", g.addrs)
	b2 := ctltest.NewBroker(t, "cluster-a", "broker-set-b", g.addrs)
	b1.Register(t)
	b2.Register(t)
	// b1's short timeout comes with its last heartbeat, after the set-up:
	// given at first, it could run out on a starved machine before the
	// in-sync set is altered.
	b1.Heartbeat(t, 0, 0, 60000)
	b2.Heartbeat(t, 0, 0, 60000)
	ctltest.MustCode(t, b1.Elect(t), 0)
	ctltest.MustCode(t, b1.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: b1.Name, MasterBrokerID: 1, MasterEpoch: 1},
		(&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode()), 0)
	b1.Heartbeat(t, 0, 0, 500)
	// b1 stays connected but silent: its 500 ms timeout runs out.
	waitFor(t, "broker 2 elected", func() bool {
		info, _ := b2.ReplicaInfo(t)
		return info.MasterBrokerID != nil && *info.MasterBrokerID == 2
	})
}

func TestFollowersAnswerNotLeaderNamingTheLeader(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	for i, addr := range g.addrs {
		md, err := ctltest.NewBroker(t, "c", "b", nil).Metadata(addr)
		if err != nil {
			t.Fatal(err)
		}
		if md.ControllerLeaderAddress != g.addrs[leader] || md.IsLeader != (i == leader) {
			t.Errorf("node %d metadata %+v, leader is %s", i, md, g.addrs[leader])
		}
		if i == leader {
			continue
		}
		for _, code := range []int32{wire.CodeAlterSyncStateSet, wire.CodeElectMaster, wire.CodeRegisterBroker, wire.CodeGetReplicaInfo,
			wire.CodeGetSyncStateData, wire.CodeCleanBrokerData, wire.CodeGetNextBrokerID, wire.CodeApplyBrokerID} {
			h := map[string]string{"clusterName": "c", "brokerName": "b", "brokerId": "1", "brokerAddress": "a",
				"masterBrokerId": "1", "masterEpoch": "1", "designateElect": "false", "appliedBrokerId": "1", "registerCheckCode": "a;1"}
			resp := nstest.Invoke(t, nstest.NewClient(t, addr), remoting.NewRequest(code, h, []byte(`["b"]`)))
			if code == wire.CodeAlterSyncStateSet {
				resp = nstest.Invoke(t, nstest.NewClient(t, addr), remoting.NewRequest(code, h, []byte(`{"syncStateSet":[1],"syncStateSetEpoch":1}`)))
			}
			if resp.Code != controller.CodeNotLeader || resp.Remark != controller.RemarkNotLeader || resp.ExtFields[wire.LeaderAddressExt] != g.addrs[leader] {
				t.Errorf("node %d code %d: %d %q %v", i, code, resp.Code, resp.Remark, resp.ExtFields)
			}
		}
		ctltest.MustCode(t, invoke(t, addr, wire.CodeGetControllerConfig, nil, nil), 0)
	}
	// Writes through the leader reach every node's state.
	b := ctltest.NewBroker(t, "c", "b", g.addrs)
	b.Register(t)
	for i, s := range g.svcs {
		waitFor(t, fmt.Sprintf("node %d has the registration", i), func() bool {
			var ok bool
			s.Node.fsm.Read(func(st *controller.State) { _, ok = st.ReplicaInfo("b") })
			return ok
		})
	}
}

func TestUpdateConfigRefusesTheBlackList(t *testing.T) {
	g := startGroup(t, 1, nil)
	for _, key := range []string{"configStorePath", "rocketmqHome", "configBlackList"} {
		resp := invoke(t, g.addrs[0], wire.CodeUpdateControllerConfig, nil, []byte(key+"=/tmp/x\n"))
		if resp.Code != remoting.NO_PERMISSION || resp.Remark != remarkBlackList {
			t.Errorf("%s: %d %q", key, resp.Code, resp.Remark)
		}
	}
	ctltest.MustCode(t, invoke(t, g.addrs[0], wire.CodeUpdateControllerConfig, nil, []byte("notifyBrokerRoleChanged=false\n")), 0)
	if g.svcs[0].Node.Config().NotifyBrokerRoleChanged {
		t.Fatal("notifyBrokerRoleChanged still true after the update")
	}
	if stored, err := os.ReadFile(g.cfgs[0].ConfigStorePath); err != nil || !strings.Contains(string(stored), "\nnotifyBrokerRoleChanged=false\n") {
		t.Fatalf("configStorePath after the update (%v):\n%s", err, stored)
	}
	got := invoke(t, g.addrs[0], wire.CodeGetControllerConfig, nil, nil)
	if !strings.Contains(string(got.Body), "notifyBrokerRoleChanged=false\n") {
		t.Fatalf("config body lacks the update: %s", got.Body)
	}
}

// A Java JRaft controller.conf (controllerType=jRaft, the jRaft* keys) runs
// the same engine; 1005 answers as JRaft: the leader's id is its Raft
// address, the peers their broker-facing addresses.
func TestJRaftKeysRunTheSameEngine(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1)
	if !ok {
		t.Skip("no free ports")
	}
	rpc, raftAddr := fmt.Sprintf("127.0.0.1:%d", base), fmt.Sprintf("127.0.0.1:%d", base+1)
	c := config.Default()
	c.ControllerType, c.JRaftServerID, c.JRaftInitConf, c.JRaftControllerRPCAddr = "jRaft", raftAddr, raftAddr, rpc
	c.ControllerStorePath, c.HTTPListenPort = t.TempDir(), -1
	c.RaftHeartbeatTimeoutMillis, c.RaftElectionTimeoutMillis = 300, 300
	g := &group{cfgs: []*config.Config{c}, addrs: []string{rpc}}
	g.start(t, 0)
	g.leader(t)
	b := ctltest.NewBroker(t, "cluster-j", "set-j", g.addrs)
	b.Register(t)
	md, err := b.Metadata(rpc)
	if err != nil || md.Group != "jRaft-Controller" || md.ControllerLeaderID != raftAddr || md.ControllerLeaderAddress != rpc ||
		md.Peers != rpc+";" || !md.IsLeader {
		t.Fatalf("metadata %+v %v", md, err)
	}
}
