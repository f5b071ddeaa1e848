package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// controllerModeConf is the broker.conf lines of a controller-mode broker
// with short periods (the Java defaults would make the test wait 5-10 s).
func controllerModeConf(controllers string) []string {
	return []string{
		"enableControllerMode=true",
		"controllerAddr=" + controllers,
		"syncBrokerMetadataPeriod=500",
		"checkSyncStateSetPeriod=500",
		"syncControllerMetadataPeriod=1000",
		"brokerHeartbeatInterval=200",
		"controllerHeartBeatTimeoutMills=3000",
	}
}

// stateVersionOf asks the NameServer, with QUERY_DATA_VERSION, for the
// DataVersion it holds for a broker address.
func stateVersionOf(ns, cluster, name, addr string, id int64) (int64, error) {
	ext := map[string]string{"brokerAddr": addr, "brokerId": strconv.FormatInt(id, 10), "brokerName": name, "clusterName": cluster}
	resp, err := nstest.Call(ns, remoting.QUERY_DATA_VERSION, ext, route.EncodeDataVersion(nil, route.DataVersion{}), 3*time.Second)
	if err != nil {
		return 0, err
	}
	if len(resp.Body) == 0 {
		return 0, fmt.Errorf("no data version for %s (code %d %s)", addr, resp.Code, resp.Remark)
	}
	dv, err := route.DecodeDataVersion(resp.Body)
	return dv.StateVersion, err
}

// routeIDs returns the set's id -> address table in the NameServer.
func routeIDs(ns, name string) (map[int64]string, error) {
	info, err := clusterInfoOf(ns)
	if err != nil {
		return nil, err
	}
	return info.BrokerAddrTable[name].BrokerAddrs, nil
}

func wantRoute(ns, name string, want map[int64]string) func() error {
	return func() error {
		got, err := routeIDs(ns, name)
		if err != nil {
			return err
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("route ids %v, want %v", got, want)
		}
		return nil
	}
}

// startMasterAndSlave starts two of our brokers of one set in controller
// mode: the first must become master (id 0 in the route, stateVersion =
// masterEpoch 1), the second slave 2, each within the given time.
func startMasterAndSlave(t *testing.T, ns *process, cluster, set string, conf []string, within time.Duration) (*process, *process) {
	t.Helper()
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: conf})
	eventually(t, within, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: conf})
	eventually(t, within, "b as slave 2", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	if sv, err := stateVersionOf(ns.Addr, cluster, set, a.Addr, 0); err != nil || sv != 1 {
		t.Fatalf("master's stateVersion %d (%v), want masterEpoch 1", sv, err)
	}
	return a, b
}

// waitInSyncSet waits until the controllers' in-sync set of a broker set
// is want (e.g. "[1 2]"): a slave outside it is never elected.
func waitInSyncSet(t *testing.T, controllers []string, cluster, set, want string, within time.Duration) {
	t.Helper()
	probe := ctltest.NewBroker(t, cluster, set, controllers)
	eventually(t, within, "the in-sync set "+want, func() error {
		if _, sss := probe.ReplicaInfo(t); fmt.Sprint(sss.SyncStateSet) != want {
			return fmt.Errorf("in-sync set %v", sss.SyncStateSet)
		}
		return nil
	})
}

// Two of our brokers in one set under a 1-node controller: the first is
// master (id 0, stateVersion = masterEpoch 1), the second slave under its
// controller id; kill -9 of the master makes the slave id 0 at epoch 2; the
// old master, restarted, keeps its id from its brokerIdentity file.
func TestBrokersInControllerModeFailOver(t *testing.T) {
	ctl := startControllerGroup(t, 1)
	ns := startNamesrv(t)
	const cluster, set = "ctl-cluster", "ctl-set"
	conf := controllerModeConf(ctl.addrs[0])
	a, b := startMasterAndSlave(t, ns, cluster, set, conf, 20*time.Second)
	meta, err := os.ReadFile(filepath.Join(a.DataDir, "brokerIdentity"))
	if err != nil || string(meta) != cluster+"#"+set+"#1" {
		t.Fatalf("a's brokerIdentity %q (%v)", meta, err)
	}
	if _, err := os.Stat(filepath.Join(a.DataDir, "brokerIdentity-temp")); !os.IsNotExist(err) {
		t.Fatalf("temp file left behind: %v", err)
	}

	// b must be in the in-sync set, or the controller will not elect it.
	waitInSyncSet(t, ctl.addrs, cluster, set, "[1 2]", 20*time.Second)

	killed := time.Now()
	a.Kill()
	eventually(t, 30*time.Second, "b as master", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr}))
	t.Logf("kill -9 of the master -> new master as id 0 in the NameServer's route: %s", time.Since(killed).Round(time.Millisecond))
	if sv, err := stateVersionOf(ns.Addr, cluster, set, b.Addr, 0); err != nil || sv != 2 {
		t.Fatalf("new master's stateVersion %d (%v), want masterEpoch 2", sv, err)
	}

	a.Restart()
	eventually(t, 20*time.Second, "a back as slave 1", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr, 1: a.Addr}))
}

// With the controller's election by offset, the in-sync slave with the
// higher simulated offset wins over the one with the lower id.
func TestControllerElectsTheBrokerWithTheHighestSimulatedOffset(t *testing.T) {
	ctl := startControllerGroup(t, 1)
	ns := startNamesrv(t)
	const cluster, set = "ctl-cluster", "ctl-offsets"
	conf := controllerModeConf(ctl.addrs[0])
	withRate := func(rate string) []string { return append(append([]string{}, conf...), "simulatedOffsetRate="+rate) }
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: withRate("1048576")})
	eventually(t, 20*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: withRate("0")})
	eventually(t, 20*time.Second, "b as slave 2", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	c := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: withRate("104857600")})
	eventually(t, 20*time.Second, "c as slave 3", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr, 3: c.Addr}))
	waitInSyncSet(t, ctl.addrs, cluster, set, "[1 2 3]", 20*time.Second)
	a.Kill()
	eventually(t, 30*time.Second, "c (higher offset) as master", wantRoute(ns.Addr, set, map[int64]string{0: c.Addr, 2: b.Addr}))
}

// Fenced start: while no controller answers, the broker registers with no
// NameServer.
func TestControllerModeBrokerStaysFencedWithoutController(t *testing.T) {
	ns := startNamesrv(t)
	dead := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	b := startBroker(t, brokerSpec{cluster: "ctl-cluster", name: "ctl-fenced", nameServers: []*process{ns}, extra: controllerModeConf(dead)})
	eventually(t, 30*time.Second, "a failed start in the broker's log", func() error {
		out, err := os.ReadFile(b.logPath)
		if err != nil {
			return err
		}
		if !strings.Contains(string(out), "controller-mode start incomplete") {
			return fmt.Errorf("no failed start logged yet")
		}
		return nil
	})
	if got, err := routeIDs(ns.Addr, "ctl-fenced"); err != nil || len(got) != 0 {
		t.Fatalf("a fenced broker is in the NameServer: %v %v", got, err)
	}
}

// Under a 3-node controller group whose leader is killed first, the brokers
// find the new leader and the master's kill -9 still fails over.
func TestBrokersFollowANewControllerLeader(t *testing.T) {
	ctl := startControllerGroup(t, 3)
	leader := ctl.leader(t, 30*time.Second)
	ns := startNamesrv(t)
	const cluster, set = "ctl-cluster", "ctl-3nodes"
	conf := controllerModeConf(strings.Join(ctl.addrs, ";"))
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: conf})
	eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: conf})
	eventually(t, 30*time.Second, "b as slave 2", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	waitInSyncSet(t, ctl.addrs, cluster, set, "[1 2]", 30*time.Second)
	ctl.procs[leader].Kill()
	next := ctl.leader(t, 30*time.Second)
	if next == leader {
		t.Fatalf("node %d still leads after its kill", leader)
	}
	killed := time.Now()
	a.Kill()
	eventually(t, 30*time.Second, "b as master under the new leader", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr}))
	t.Logf("controller leader killed, then the master: new master as id 0 in the route %s after the master's kill",
		time.Since(killed).Round(time.Millisecond))
	if sv, err := stateVersionOf(ns.Addr, cluster, set, b.Addr, 0); err != nil || sv != 2 {
		t.Fatalf("new master's stateVersion %d (%v), want masterEpoch 2", sv, err)
	}
}
