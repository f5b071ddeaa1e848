package test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// controllerGroup is size cmd/controller processes on loopback ports
// base..base+size-1, Raft on those + 1000, sharing one store folder.
type controllerGroup struct {
	procs []*process
	addrs []string
	store string
}

func startControllerGroup(t *testing.T, size int, extra ...string) *controllerGroup {
	t.Helper()
	addrs, peers := groupPeers(t, size)
	return startControllerGroupAt(t, addrs, peers, extra...)
}

// startControllerGroupAt is startControllerGroup on addresses groupPeers
// picked before: the NameServers its leader notifies list them in
// controllerAddr, and start first.
func startControllerGroupAt(t *testing.T, addrs, peers []string, extra ...string) *controllerGroup {
	t.Helper()
	size := len(addrs)
	g := &controllerGroup{store: t.TempDir(), addrs: addrs}
	for i := range size {
		args := append([]string{"-controllerDLegerGroup", "e2e", "-controllerDLegerPeers", strings.Join(peers, ";"),
			"-controllerDLegerSelfId", fmt.Sprintf("n%d", i), "-controllerStorePath", g.store, "-httpListenPort", "-1",
			"-configStorePath", filepath.Join(g.store, fmt.Sprintf("controller-n%d.properties", i)),
			"-scanNotActiveBrokerInterval", "500", "-scanInactiveMasterInterval", "500"}, extra...)
		p := &process{t: t, name: "controller", args: args, Addr: g.addrs[i], DataDir: g.store}
		p.start()
		g.procs = append(g.procs, p)
	}
	return g
}

// groupPeers picks free loopback ports for size controller nodes (each
// listed port and Raft's, 1000 above it) and returns the nodes' addresses
// and their controllerDLegerPeers entries (n0-addr, n1-addr, ...).
func groupPeers(t *testing.T, size int) (addrs, peers []string) {
	t.Helper()
	offsets := []int{}
	for i := range size {
		offsets = append(offsets, i, 1000+i)
	}
	base, ok := nstest.FreePorts(offsets...)
	if !ok {
		t.Fatal("no free loopback ports for the controller group")
	}
	for i := range size {
		addrs = append(addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(base+i)))
		peers = append(peers, fmt.Sprintf("n%d-%s", i, addrs[i]))
	}
	return addrs, peers
}

// leader polls every live node's 1005 until one says it leads.
func (g *controllerGroup) leader(t *testing.T, within time.Duration) int {
	t.Helper()
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	leader := -1
	eventually(t, within, "a serving controller leader", func() error {
		for i, addr := range g.addrs {
			if g.procs[i].cmd.ProcessState != nil {
				continue
			}
			if md, err := probe.Metadata(addr); err == nil && md.IsLeader {
				leader = i
				return nil
			}
		}
		return fmt.Errorf("no node says isLeader")
	})
	return leader
}

// heartbeatLoop keeps brokers alive on every node until the test ends.
func heartbeatLoop(t *testing.T, brokers ...*ctltest.Broker) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			for _, b := range brokers {
				b.Heartbeat(t, 0, 100, 60000)
			}
			select {
			case <-stop:
				return
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(stop); wg.Wait() })
	// The first round may still be on its way (oneway, each broker on its
	// own connections): an alter naming a broker the leader has not heard
	// from is refused 2006 (failed once under nice -n 10).
	ctltest.WaitAlive(t, brokers...)
}

func alterSSS(t *testing.T, master *ctltest.Broker, masterEpoch, sssEpoch int32, ids ...int64) *remoting.Command {
	t.Helper()
	return master.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: master.Name,
		MasterBrokerID: master.ID, MasterEpoch: masterEpoch}, (&wire.SyncStateSet{SyncStateSet: ids, SyncStateSetEpoch: sssEpoch}).Encode())
}

func nextBrokerID(t *testing.T, b *ctltest.Broker) int64 {
	t.Helper()
	resp := b.Call(t, wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: b.Cluster, BrokerName: b.Name}, nil)
	ctltest.MustCode(t, resp, 0)
	var h wire.GetNextBrokerIDResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil {
		t.Fatal(err)
	}
	return h.NextBrokerID
}

func TestControllerSingleNodeOverTheWire(t *testing.T) {
	g := startControllerGroup(t, 1)
	g.leader(t, 20*time.Second)
	b1 := ctltest.NewBroker(t, "cluster-a", "broker-set-a", g.addrs)
	b2 := ctltest.NewBroker(t, "cluster-a", "broker-set-a", g.addrs)
	b1.Register(t)
	b2.Register(t)
	if b1.ID != 1 || b2.ID != 2 || nextBrokerID(t, b1) != 3 {
		t.Fatalf("ids %d %d next %d, want 1 2 3", b1.ID, b2.ID, nextBrokerID(t, b1))
	}
	heartbeatLoop(t, b1, b2)
	ctltest.MustCode(t, b1.Elect(t), 0)
	ctltest.MustCode(t, b2.Elect(t), controller.CodeMasterStillExist)
	ctltest.MustCode(t, alterSSS(t, b1, 1, 1, 1, 2), 0)
	ctltest.MustCode(t, alterSSS(t, b1, 0, 2, 1), controller.CodeFencedMasterEpoch)
	info, sss := b2.ReplicaInfo(t)
	if *info.MasterBrokerID != 1 || *info.MasterAddress != b1.Addr || *info.MasterEpoch != 1 || fmt.Sprint(sss.SyncStateSet) != "[1 2]" || sss.SyncStateSetEpoch != 2 {
		t.Fatalf("replica info: %s %v", ctltest.Int64(info.MasterBrokerID), sss)
	}
	md, err := b1.Metadata(g.addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	if md.Group != "e2e" || md.ControllerLeaderID != "n0" || md.ControllerLeaderAddress != g.addrs[0] || !md.IsLeader || md.Peers != "n0:"+g.addrs[0]+";" {
		t.Fatalf("metadata %+v", md)
	}
	// The master's connections close: the in-sync broker 2 takes over.
	b1.Close()
	eventually(t, 10*time.Second, "broker 2 elected after broker 1's close", func() error {
		info, _ := b2.ReplicaInfo(t)
		if info.MasterBrokerID == nil || *info.MasterBrokerID != 2 {
			return fmt.Errorf("master %s", ctltest.Int64(info.MasterBrokerID))
		}
		return nil
	})
}

func TestControllerThreeNodesKeepAcknowledgedWritesAcrossLeaderKill(t *testing.T) {
	g := startControllerGroup(t, 3)
	leader := g.leader(t, 20*time.Second)
	brokers := make([]*ctltest.Broker, 3)
	for i := range brokers {
		brokers[i] = ctltest.NewBroker(t, "cluster-a", "broker-set-a", g.addrs)
		brokers[i].Register(t)
	}
	heartbeatLoop(t, brokers...)
	ctltest.MustCode(t, brokers[0].Elect(t), 0)
	ctltest.MustCode(t, alterSSS(t, brokers[0], 1, 1, 1, 2, 3), 0)

	// Followers refuse state requests, naming the leader; any node answers
	// the metadata with the same leader.
	for i, addr := range g.addrs {
		md, err := brokers[0].Metadata(addr)
		if err != nil || md.ControllerLeaderAddress != g.addrs[leader] || md.IsLeader != (i == leader) {
			t.Fatalf("node %d metadata %+v %v, leader %s", i, md, err, g.addrs[leader])
		}
		if i == leader {
			continue
		}
		resp := nstest.Invoke(t, nstest.NewClient(t, addr), remoting.NewRequest(wire.CodeGetReplicaInfo,
			map[string]string{"brokerName": "broker-set-a"}, nil))
		if resp.Code != controller.CodeNotLeader || resp.Remark != controller.RemarkNotLeader || resp.ExtFields[wire.LeaderAddressExt] != g.addrs[leader] {
			t.Fatalf("follower %d: %d %q %v", i, resp.Code, resp.Remark, resp.ExtFields)
		}
	}

	killed := time.Now()
	g.procs[leader].Kill()
	next := g.leader(t, 30*time.Second)
	t.Logf("leader n%d killed (SIGKILL); n%d serving after %s", leader, next, time.Since(killed).Round(time.Millisecond))
	if next == leader {
		t.Fatal("the killed node is still the leader")
	}
	info, sss := brokers[1].ReplicaInfo(t)
	if *info.MasterBrokerID != 1 || *info.MasterEpoch != 1 || fmt.Sprint(sss.SyncStateSet) != "[1 2 3]" || sss.SyncStateSetEpoch != 2 {
		t.Fatalf("after the leader's kill: master %s epoch %d sss %v", ctltest.Int64(info.MasterBrokerID), *info.MasterEpoch, sss)
	}
	if id := nextBrokerID(t, brokers[1]); id != 4 {
		t.Fatalf("next broker id %d after the kill, want 4", id)
	}
	// The new leader takes writes and elects: the master dies, another
	// in-sync member takes over.
	brokers[0].Close()
	eventually(t, 15*time.Second, "a new master after broker 1's close", func() error {
		info, _ := brokers[1].ReplicaInfo(t)
		if info.MasterBrokerID == nil || *info.MasterBrokerID == 1 || *info.MasterEpoch != 2 {
			return fmt.Errorf("master %s", ctltest.Int64(info.MasterBrokerID))
		}
		return nil
	})
	// The killed node comes back and follows the new leader.
	g.procs[leader].start()
	eventually(t, 20*time.Second, "the restarted node names the leader", func() error {
		md, err := brokers[1].Metadata(g.addrs[leader])
		if err != nil || md.ControllerLeaderAddress != g.addrs[next] {
			return fmt.Errorf("metadata %+v %v", md, err)
		}
		return nil
	})
}

func TestControllerRestartsFromItsSnapshot(t *testing.T) {
	g := startControllerGroup(t, 1, "-controllerSnapshotThreshold", "4", "-controllerSnapshotIntervalMillis", "200",
		"-controllerTrailingLogs", "0")
	g.leader(t, 20*time.Second)
	var brokers []*ctltest.Broker
	for range 8 {
		b := ctltest.NewBroker(t, "cluster-a", "broker-set-s", g.addrs)
		b.Register(t)
		brokers = append(brokers, b)
	}
	snapDir := filepath.Join(g.store, "raft-n0", "snapshots")
	eventually(t, 20*time.Second, "a snapshot on disk", func() error {
		entries, err := os.ReadDir(snapDir)
		if err != nil || len(entries) == 0 {
			return fmt.Errorf("no snapshot in %s: %v", snapDir, err)
		}
		return nil
	})
	if code := g.procs[0].Stop(); code != 0 {
		t.Fatalf("graceful stop exited %d", code)
	}
	g.procs[0].start()
	g.leader(t, 20*time.Second)
	if id := nextBrokerID(t, brokers[0]); id != 9 {
		t.Fatalf("next broker id %d after the restart, want 9", id)
	}
	out, _ := os.ReadFile(g.procs[0].logPath)
	if !strings.Contains(string(out), "restored from snapshot") {
		t.Fatalf("the restart did not restore a snapshot:\n%s", out)
	}
}

// embeddedControllerFile writes a NameServer properties file with a 1-node
// controller (group "embedded") in it (enableControllerInNamesrv); it
// returns the file and the controller's address (the self peer's port).
func embeddedControllerFile(t *testing.T) (string, string) {
	t.Helper()
	base, ok := nstest.FreePorts(0, 1000)
	if !ok {
		t.Fatal("no free ports")
	}
	ctlAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(base))
	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	conf := fmt.Sprintf("enableControllerInNamesrv=true\ncontrollerDLegerGroup=embedded\ncontrollerDLegerPeers=n0-%s\n"+
		"controllerDLegerSelfId=n0\ncontrollerStorePath=%s\nconfigStorePath=%s\n", ctlAddr, filepath.ToSlash(filepath.Join(dir, "ctl")),
		filepath.ToSlash(filepath.Join(dir, "controller.properties")))
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, ctlAddr
}

func TestControllerEmbeddedInTheNameServer(t *testing.T) {
	file, ctlAddr := embeddedControllerFile(t)
	ns := startNamesrv(t, "-c", file)
	b := ctltest.NewBroker(t, "cluster-a", "broker-set-e", []string{ctlAddr})
	b.Register(t)
	b.Heartbeat(t, 0, 0, 60000)
	ctltest.MustCode(t, b.Elect(t), 0)
	md, err := b.Metadata(ctlAddr)
	if err != nil || md.Group != "embedded" || !md.IsLeader {
		t.Fatalf("embedded controller metadata %+v %v", md, err)
	}
	// The NameServer's own port still serves routes, and not the controller.
	if _, code, err := routeOf(ns.Addr, "NoSuchTopic"); err != nil || code != remoting.TOPIC_NOT_EXIST {
		t.Fatalf("route query on the NameServer port: code %d %v", code, err)
	}
	resp := nstest.Invoke(t, nstest.NewClient(t, ns.Addr), remoting.NewRequest(wire.CodeGetMetadataInfo, nil, nil))
	if resp.Code != remoting.REQUEST_CODE_NOT_SUPPORTED {
		t.Fatalf("1005 on the NameServer port: %d %q", resp.Code, resp.Remark)
	}
}

// UPDATE_CONTROLLER_CONFIG is written to configStorePath and the binary,
// restarted with the same command line, runs with it.
func TestControllerConfigUpdateSurvivesRestart(t *testing.T) {
	g := startControllerGroup(t, 1)
	g.leader(t, 20*time.Second)
	mustMqadmin(t, "updateControllerConfig", "-a", g.addrs[0], "-k", "enableElectUncleanMaster", "-v", "true")
	stored, err := os.ReadFile(filepath.Join(g.store, "controller-n0.properties"))
	if err != nil || !strings.Contains(string(stored), "\nenableElectUncleanMaster=true\n") {
		t.Fatalf("configStorePath after the update (%v):\n%s", err, stored)
	}
	g.procs[0].Restart()
	g.leader(t, 20*time.Second)
	if out := mustMqadmin(t, "getControllerConfig", "-a", g.addrs[0]); !strings.Contains(out, "enableElectUncleanMaster                          =  true\n") {
		t.Fatalf("getControllerConfig after the restart:\n%s", out)
	}
	if log, _ := os.ReadFile(g.procs[0].logPath); !strings.Contains(string(log), "read back from configStorePath") {
		t.Fatalf("the restart did not say it read the stored settings:\n%s", log)
	}
}

func TestControllerMqadminCommands(t *testing.T) {
	g := startControllerGroup(t, 3)
	leader := g.leader(t, 20*time.Second)
	follower := g.addrs[(leader+1)%3]
	b1 := ctltest.NewBroker(t, "cluster-a", "broker-set-m", g.addrs)
	b2 := ctltest.NewBroker(t, "cluster-a", "broker-set-m", g.addrs)
	b1.Register(t)
	b2.Register(t)
	heartbeatLoop(t, b1, b2)
	ctltest.MustCode(t, b1.Elect(t), 0)

	md := mustMqadmin(t, "getControllerMetaData", "-a", follower)
	want := fmt.Sprintf("\n#ControllerGroup\te2e\n#ControllerLeaderId\tn%d\n#ControllerLeaderAddress\t%s\n#Peer:\tn0:%s\n#Peer:\tn1:%s\n#Peer:\tn2:%s\n",
		leader, g.addrs[leader], g.addrs[0], g.addrs[1], g.addrs[2])
	if md != want {
		t.Fatalf("getControllerMetaData:\n%q\nwant\n%q", md, want)
	}
	sss := mustMqadmin(t, "getSyncStateSet", "-a", follower, "-b", "broker-set-m")
	want = fmt.Sprintf("\n#brokerName\tbroker-set-m\n#MasterBrokerId\t1\n#MasterAddr\t%s\n#MasterEpoch\t1\n#SyncStateSetEpoch\t1\n#SyncStateSetNums\t1\n"+
		"\nInSyncReplica:\tReplicaIdentity{brokerName='broker-set-m', brokerId=1, brokerAddress='%s', alive=true}\n"+
		"\nNotInSyncReplica:\tReplicaIdentity{brokerName='broker-set-m', brokerId=2, brokerAddress='%s', alive=true}\n", b1.Addr, b1.Addr, b2.Addr)
	if sss != want {
		t.Fatalf("getSyncStateSet:\n%q\nwant\n%q", sss, want)
	}
	// Broker 2 is alive but out of sync: a designated election of it fails
	// (2012); of the master, MASTER_STILL_EXIST (2011) is an error too.
	if r := mqadmin(t, "electMaster", "-a", follower, "-b", "2", "-bn", "broker-set-m", "-c", "cluster-a"); r.code == 0 ||
		!strings.Contains(r.stderr, "CODE: 2012") {
		t.Fatalf("electMaster of an out-of-sync broker: %d %q %q", r.code, r.stdout, r.stderr)
	}
	ctltest.MustCode(t, alterSSS(t, b1, 1, 1, 1, 2), 0)
	out := mustMqadmin(t, "electMaster", "-a", follower, "-b", "2", "-bn", "broker-set-m", "-c", "cluster-a")
	want = fmt.Sprintf("\n#ClusterName\tcluster-a\n#BrokerName\tbroker-set-m\n#BrokerMasterAddr\t%s\n#MasterEpoch\t2\n#SyncStateSetEpoch\t3\n", b2.Addr)
	if out != want {
		t.Fatalf("electMaster:\n%q\nwant\n%q", out, want)
	}
	if js := mustMqadmin(t, "getControllerMetaData", "-a", follower, "-json"); !strings.Contains(js, `"isLeader": false`) {
		t.Fatalf("getControllerMetaData -json: %s", js)
	}

	all := strings.Join(g.addrs, ";")
	out = mustMqadmin(t, "updateControllerConfig", "-a", all, "-k", "notifyBrokerRoleChanged", "-v", "false")
	want = fmt.Sprintf("update controller config success![%s]\nnotifyBrokerRoleChanged : false\n", strings.Join(g.addrs, ", "))
	for _, addr := range g.addrs {
		want += addr + ": changed now: notifyBrokerRoleChanged\n"
	}
	if out != want {
		t.Fatalf("updateControllerConfig: %q, want %q", out, want)
	}
	out = mustMqadmin(t, "getControllerConfig", "-a", all)
	if strings.Count(out, "notifyBrokerRoleChanged                           =  false\n") != 3 ||
		!strings.Contains(out, "============"+g.addrs[2]+"============\n") {
		t.Fatalf("getControllerConfig:\n%s", out)
	}
	if r := mqadmin(t, "updateControllerConfig", "-a", follower, "-k", "configStorePath", "-v", "/tmp/x"); r.code == 0 || !strings.Contains(r.stderr, "CODE: 16") {
		t.Fatalf("updateControllerConfig of a black-listed key: %d %q", r.code, r.stderr)
	}
	// A set whose master is recorded is not cleaned without ids (2009); with
	// -l it is, and the next id of the set starts over at 1.
	if r := mqadmin(t, "cleanBrokerMetadata", "-a", follower, "-bn", "broker-set-m", "-c", "cluster-a"); r.code == 0 || !strings.Contains(r.stderr, "CODE: 2009") {
		t.Fatalf("cleanBrokerMetadata of a set with a master: %d %q", r.code, r.stderr)
	}
	out = mustMqadmin(t, "cleanBrokerMetadata", "-a", follower, "-bn", "broker-set-m", "-l")
	if out != "clear broker broker-set-m metadata from controller success! \n" {
		t.Fatalf("cleanBrokerMetadata: %q", out)
	}
	if id := nextBrokerID(t, b1); id != 1 {
		t.Fatalf("next id after the clean %d, want 1", id)
	}
}

// TestControllerFailoverFigures measures, with the defaults (Raft 1 s
// timeouts, 10 s broker heartbeat timeout, 5 s scans), the leader change
// after a SIGKILL, the election after the master's connection closes and
// after it falls silent. It only logs; CONTROLLER_FIGURES=1 runs it
// (docs/controller.md quotes its output).
func TestControllerFailoverFigures(t *testing.T) {
	if os.Getenv("CONTROLLER_FIGURES") == "" {
		t.Skip("CONTROLLER_FIGURES=1 runs the failover measurements (about 30 s)")
	}
	g := startControllerGroup(t, 3, "-scanNotActiveBrokerInterval", "5000", "-scanInactiveMasterInterval", "5000")
	leader := g.leader(t, 20*time.Second)
	killed := time.Now()
	g.procs[leader].Kill()
	g.leader(t, 30*time.Second)
	t.Logf("FIGURE leader change after SIGKILL of the leader: %s", time.Since(killed).Round(time.Millisecond))

	electAfter := func(name string, kill func(b *ctltest.Broker, stop func())) {
		b1 := ctltest.NewBroker(t, "cluster-f", name, g.addrs)
		b2 := ctltest.NewBroker(t, "cluster-f", name, g.addrs)
		b1.Register(t)
		b2.Register(t)
		stop1 := make(chan struct{})
		var once sync.Once
		go func() {
			for {
				b1.Heartbeat(t, 0, 100, 10000)
				select {
				case <-stop1:
					return
				case <-time.After(time.Second):
				}
			}
		}()
		heartbeatLoop(t, b2)
		b2.Heartbeat(t, 0, 100, 10000)
		ctltest.MustCode(t, b1.Elect(t), 0)
		ctltest.MustCode(t, alterSSS(t, b1, 1, 1, 1, 2), 0)
		started := time.Now()
		kill(b1, func() { once.Do(func() { close(stop1) }) })
		eventually(t, 40*time.Second, "broker 2 elected", func() error {
			info, _ := b2.ReplicaInfo(t)
			if info.MasterBrokerID == nil || *info.MasterBrokerID != 2 {
				return fmt.Errorf("master %s", ctltest.Int64(info.MasterBrokerID))
			}
			return nil
		})
		t.Logf("FIGURE %s: broker 2 master after %s", name, time.Since(started).Round(time.Millisecond))
	}
	electAfter("master-connection-closed", func(b *ctltest.Broker, stop func()) { stop(); b.Close() })
	electAfter("master-silent", func(_ *ctltest.Broker, stop func()) { stop() })
}
