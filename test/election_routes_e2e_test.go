package test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// routedTopic is a topic every one of our brokers registers, whose route
// answer shows the set's brokerAddrs as clients read them.
const routedTopic = "SELF_TEST_TOPIC"

// electionBrokerConf is a controller-mode broker.conf with short periods;
// rolePoll is syncBrokerMetadataPeriod, how soon a member that got no
// NOTIFY_BROKER_ROLE_CHANGED learns its new role (GET_REPLICA_INFO).
func electionBrokerConf(controllers []string, rolePoll time.Duration) []string {
	return []string{"enableControllerMode=true", "controllerAddr=" + strings.Join(controllers, ";"),
		"syncBrokerMetadataPeriod=" + strconv.FormatInt(rolePoll.Milliseconds(), 10), "checkSyncStateSetPeriod=500",
		"syncControllerMetadataPeriod=1000", "brokerHeartbeatInterval=200", "controllerHeartBeatTimeoutMills=3000"}
}

// startEmbeddedGroup starts size NameServers with side ports, NameServer i
// embedding node i of one controller group (enableControllerInNamesrv), with
// lines(i) added to its -c file. It returns them and the nodes' addresses.
func startEmbeddedGroup(t *testing.T, size int, lines func(i int) []string) ([]*sidePort, []string) {
	t.Helper()
	addrs, peers := groupPeers(t, size)
	store := t.TempDir()
	var nss []*sidePort
	for i := range size {
		conf := append([]string{"enableControllerInNamesrv=true", "controllerDLegerGroup=embedded",
			"controllerDLegerPeers=" + strings.Join(peers, ";"), fmt.Sprintf("controllerDLegerSelfId=n%d", i),
			"controllerStorePath=" + filepath.ToSlash(store), "scanInactiveMasterInterval=500",
			// Each node stores its UPDATE_CONTROLLER_CONFIG in a file of its
			// own: the default under the home folder is read back by every
			// embedded controller's next start, other tests' included.
			"configStorePath=" + filepath.ToSlash(filepath.Join(store, fmt.Sprintf("n%d.properties", i)))}, lines(i)...)
		file := filepath.Join(t.TempDir(), "namesrv.properties")
		if err := os.WriteFile(file, []byte(strings.Join(conf, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		nss = append(nss, startNamesrvHTTP(t, "-c", file))
	}
	return nss, addrs
}

// controllerLeader returns the index of the node that says it leads.
func controllerLeader(t *testing.T, addrs []string) int {
	t.Helper()
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	leader := -1
	eventually(t, 30*time.Second, "a serving controller leader", func() error {
		for i, addr := range addrs {
			if md, err := probe.Metadata(addr); err == nil && md.IsLeader {
				leader = i
				return nil
			}
		}
		return fmt.Errorf("no node says isLeader")
	})
	return leader
}

// routedAddrs is the set's brokerAddrs in the route answer of routedTopic.
func routedAddrs(ns, set string) (map[int64]string, error) {
	return routedAddrsOf(ns, routedTopic, set)
}

// routedAddrsOf is the set's brokerAddrs in the route answer of topic.
func routedAddrsOf(ns, topic, set string) (map[int64]string, error) {
	data, code, err := routeOf(ns, topic)
	if err != nil || code != remoting.SUCCESS {
		return nil, fmt.Errorf("route of %s: code %d %v", topic, code, err)
	}
	for _, bd := range data.BrokerDatas {
		if bd.BrokerName == set {
			return bd.BrokerAddrs, nil
		}
	}
	return nil, fmt.Errorf("no %s in the route of %s", set, topic)
}

// newMasterIn waits until ns's route answer shows one of candidates at id 0
// and old nowhere, and returns that candidate.
func newMasterIn(t *testing.T, ns, set, old string, candidates ...string) string {
	t.Helper()
	var master string
	eventually(t, 10*time.Second, "a new master at id 0 in "+ns+"'s route", func() error {
		addrs, err := routedAddrs(ns, set)
		if err != nil {
			return err
		}
		for _, addr := range addrs {
			if addr == old {
				return fmt.Errorf("the old master is still in the route: %v", addrs)
			}
		}
		for _, c := range candidates {
			if addrs[0] == c {
				master = c
				return nil
			}
		}
		return fmt.Errorf("brokerAddrs %v", addrs)
	})
	return master
}

// metricValue reads one sample of ns's /metrics (0 when absent).
func metricValue(t *testing.T, ns *sidePort, sample string) float64 {
	t.Helper()
	code, body, err := ns.get("/metrics")
	if err != nil || code != http.StatusOK {
		t.Fatalf("/metrics of %s: %d %v", ns.Addr, code, err)
	}
	for _, line := range strings.Split(string(body), "\n") {
		if rest, ok := strings.CutPrefix(line, sample+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return v
		}
	}
	return 0
}

// metricsHave fails the test unless ns's /metrics holds every line.
func metricsHave(t *testing.T, ns *sidePort, lines ...string) {
	t.Helper()
	code, body, err := ns.get("/metrics")
	if err != nil || code != http.StatusOK {
		t.Fatalf("/metrics of %s: %d %v", ns.Addr, code, err)
	}
	for _, line := range lines {
		if !strings.Contains(string(body), "\n"+line+"\n") {
			t.Errorf("/metrics of %s lacks %q", ns.Addr, line)
		}
	}
}

// followedElection says whether ns's log shows its route following the
// election of masterEpoch epoch, with the elected master moved to id 0
// from its slave id: the election came before that master's own id-0
// registration (which would have put it there first, leaving the election
// nothing to move).
func followedElection(ns *process, epoch int) error {
	out, err := os.ReadFile(ns.logPath)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "route follows the controller's election") &&
			strings.Contains(line, fmt.Sprintf("masterEpoch=%d ", epoch)) && strings.Contains(line, "moved=true") {
			return nil
		}
	}
	return fmt.Errorf("%s logged no election of masterEpoch %d moving the master to id 0", ns.Addr, epoch)
}

// staleMaster is a fake broker connection registering as the set's id 0
// from addr with stateVersion epoch.
func staleMaster(t *testing.T, ns, cluster, set, addr string, epoch int64) *remoting.Command {
	t.Helper()
	b := nstest.Broker{Cluster: cluster, Name: set, Addr: addr, HAAddr: addr, ID: 0,
		Topics:  map[string]int32{routedTopic: 1, "StaleTopic": 4},
		Version: route.DataVersion{Counter: 1000, StateVersion: epoch, Timestamp: time.Now().UnixMilli()}}
	return nstest.Invoke(t, nstest.NewClient(t, ns), b.RegisterRequest())
}

// Issue 24 items 2, 3 and 5: three NameServers each embedding a node of
// one controller group, three of our brokers in one set. Kill -9 of the
// master: the route answer of every NameServer shows the new master at id
// 0, the old one gone; on the NameServer whose node leads, the election
// moved the master before its own registration could arrive. A stale
// master registering as id 0 afterwards is refused and counted where
// controllerFencing is on; the third NameServer, with it off, keeps Java's
// rule. The old master, restarted, is a slave again.
func TestRoutesFollowEmbeddedControllerElections(t *testing.T) {
	nss, ctl := startEmbeddedGroup(t, 3, func(i int) []string {
		if i == 2 {
			return []string{"controllerFencing=false"}
		}
		return nil
	})
	controllerLeader(t, ctl)
	var procs []*process
	for _, ns := range nss {
		procs = append(procs, ns.process)
	}
	const cluster, set = "ctl-cluster", "ctl-embedded"
	conf := electionBrokerConf(ctl, 500*time.Millisecond)
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	for _, ns := range nss {
		eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	}
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	c := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	for _, ns := range nss {
		eventually(t, 30*time.Second, "b and c as slaves", func() error {
			ids, err := routeIDs(ns.Addr, set)
			if err != nil || len(ids) != 3 || ids[0] != a.Addr {
				return fmt.Errorf("route ids %v %v", ids, err)
			}
			return nil
		})
	}
	probe := ctltest.NewBroker(t, cluster, set, ctl)
	eventually(t, 30*time.Second, "b and c in the in-sync set", func() error {
		if _, sss := probe.ReplicaInfo(t); fmt.Sprint(sss.SyncStateSet) != "[1 2 3]" {
			return fmt.Errorf("in-sync set %v", sss.SyncStateSet)
		}
		return nil
	})
	leader := controllerLeader(t, ctl)

	killed := time.Now()
	a.Kill()
	var master string
	for i, ns := range nss {
		got := newMasterIn(t, ns.Addr, set, a.Addr, b.Addr, c.Addr)
		t.Logf("NameServer %d (leader %v): kill -9 of the master -> new master %s at id 0 in the route answer: %s",
			i, i == leader, got, time.Since(killed).Round(time.Millisecond))
		if master != "" && got != master {
			t.Fatalf("NameServers disagree on the new master: %s and %s", master, got)
		}
		master = got
	}
	if err := followedElection(nss[leader].process, 2); err != nil {
		t.Fatal(err)
	}
	metricsHave(t, nss[leader], `rocketmq_namesrv_controller_elections_applied_total{source="embedded"} 2`)
	for _, ns := range nss {
		eventually(t, 20*time.Second, "the new master's own registration on masterEpoch 2", func() error {
			if sv, err := stateVersionOf(ns.Addr, cluster, set, master, 0); err != nil || sv != 2 {
				return fmt.Errorf("stateVersion %d %v", sv, err)
			}
			return nil
		})
	}

	// The old master's heartbeat brings nothing back.
	hb := map[string]string{"clusterName": cluster, "brokerAddr": a.Addr}
	for _, ns := range nss {
		if _, err := nstest.Call(ns.Addr, remoting.BROKER_HEARTBEAT, hb, nil, 3*time.Second); err != nil {
			t.Fatal(err)
		}
		if _, err := stateVersionOf(ns.Addr, cluster, set, a.Addr, 0); err == nil {
			t.Fatalf("%s holds a live entry of the old master after its heartbeat", ns.Addr)
		}
	}

	// A stale master: the old address as id 0, on the old epoch, then
	// claiming the new one.
	const ignored, takenOver = `rocketmq_namesrv_registrations_refused_total{reason="ignored_stale_version"}`,
		`rocketmq_namesrv_broker_id_conflicts_total{outcome="taken_over"}`
	for i, ns := range nss {
		ignoredBefore, takenBefore := metricValue(t, ns, ignored), metricValue(t, ns, takenOver)
		old := staleMaster(t, ns.Addr, cluster, set, a.Addr, 1)
		claim := staleMaster(t, ns.Addr, cluster, set, a.Addr, 2)
		if i == 2 { // controllerFencing=false: Java's rule
			nstest.MustCode(t, old, remoting.SUCCESS) // ignored, answered 0 as Java does
			nstest.MustCode(t, claim, remoting.SUCCESS)
			// The real master re-registers every clusterRegisterPeriod with
			// the same stateVersion and so takes id 0 back under Java's rule:
			// each of those counts one more take-over, so the claim's is
			// at least one (under nice, the master's next period fell
			// between the claim and the scrape: 2).
			if got := metricValue(t, ns, ignored); got != ignoredBefore+1 {
				t.Fatalf("fencing off: the old epoch ignored %v times, want once", got-ignoredBefore)
			}
			if got := metricValue(t, ns, takenOver); got < takenBefore+1 {
				t.Fatalf("fencing off: the equal epoch taken over %v times, want at least once", got-takenBefore)
			}
			eventually(t, 20*time.Second, "the master taking id 0 back at its next registration", func() error {
				if addrs, err := routedAddrs(ns.Addr, set); err != nil || addrs[0] != master {
					return fmt.Errorf("route %v %v", addrs, err)
				}
				return nil
			})
			metricsHave(t, ns, `rocketmq_namesrv_registrations_refused_total{reason="fenced_by_controller"} 0`)
			continue
		}
		nstest.MustCode(t, old, remoting.SYSTEM_ERROR)
		nstest.MustCode(t, claim, remoting.SYSTEM_ERROR)
		if !strings.Contains(old.Remark, "fenced by the controller's election: stateVersion 1 is older than masterEpoch 2") ||
			!strings.Contains(claim.Remark, "not this address") {
			t.Fatalf("NameServer %d remarks %q, %q", i, old.Remark, claim.Remark)
		}
		metricsHave(t, ns, `rocketmq_namesrv_registrations_refused_total{reason="fenced_by_controller"} 2`)
		if addrs, err := routedAddrs(ns.Addr, set); err != nil || addrs[0] != master {
			t.Fatalf("NameServer %d route after the stale registrations: %v %v", i, addrs, err)
		}
	}

	// The old master restarted learns it is a slave and registers as one.
	a.Restart()
	for _, ns := range nss[:2] {
		eventually(t, 30*time.Second, "the old master back as slave 1", func() error {
			ids, err := routeIDs(ns.Addr, set)
			if err != nil || ids[0] != master || ids[1] != a.Addr {
				return fmt.Errorf("route ids %v %v", ids, err)
			}
			return nil
		})
	}
}

// Issue 24 items 2 and 5, standalone: a 3-node cmd/controller group whose
// namesrvAddr lists two of our NameServers and one server that does not
// know the notice (our broker's port answers REQUEST_CODE_NOT_SUPPORTED, as
// a Java NameServer does). The members get no role-change notice and poll
// their role every 10 s, so the new master's own registration comes late:
// the route answer of both NameServers shows it at id 0 from the leader's
// notice alone, and the Apache Go client, reading it, sends a topic
// deletion to the new master.
func TestRoutesFollowStandaloneControllerNotices(t *testing.T) {
	ctlAddrs, peers := groupPeers(t, 3)
	nsA := startNamesrvHTTP(t, "-controllerAddr", strings.Join(ctlAddrs, ";"))
	nsB := startNamesrvHTTP(t, "-controllerAddr", strings.Join(ctlAddrs, ";"))
	unknowing := freePort(t)
	unknowingAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(unknowing))
	ctl := startControllerGroupAt(t, ctlAddrs, peers, "-namesrvAddr", nsA.Addr+";"+nsB.Addr+";"+unknowingAddr,
		"-notifyBrokerRoleChanged=false")
	ctl.leader(t, 30*time.Second)
	const cluster, set = "ctl-cluster", "ctl-standalone"
	procs := []*process{nsA.process, nsB.process}
	conf := electionBrokerConf(ctl.addrs, 10*time.Second)
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	for _, ns := range procs {
		eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	}
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	c := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf, port: unknowing})
	for _, ns := range procs {
		eventually(t, 30*time.Second, "b and c as slaves", func() error {
			if ids, err := routeIDs(ns.Addr, set); err != nil || len(ids) != 3 {
				return fmt.Errorf("route ids %v %v", ids, err)
			}
			return nil
		})
	}
	probe := ctltest.NewBroker(t, cluster, set, ctl.addrs)
	eventually(t, 30*time.Second, "b and c in the in-sync set", func() error {
		if _, sss := probe.ReplicaInfo(t); fmt.Sprint(sss.SyncStateSet) != "[1 2 3]" {
			return fmt.Errorf("in-sync set %v", sss.SyncStateSet)
		}
		return nil
	})
	// A topic on every member, for the Apache Go client below.
	const goTopic = "GoFailoverTopic"
	goTopicOnEvery(t, nsA.Addr, set, goTopic, a, b, c)
	leader := ctl.leader(t, 10*time.Second)

	killed := time.Now()
	a.Kill()
	var master string
	for i, ns := range []*sidePort{nsA, nsB} {
		master = newMasterIn(t, ns.Addr, set, a.Addr, b.Addr, c.Addr)
		t.Logf("NameServer %d: kill -9 of the master -> new master %s at id 0 in the route answer: %s",
			i, master, time.Since(killed).Round(time.Millisecond))
		if err := followedElection(ns.process, 2); err != nil {
			t.Fatal(err)
		}
		metricsHave(t, ns, `rocketmq_namesrv_controller_elections_applied_total{source="notice"} 2`)
	}
	// The Apache Go client reads the route and sends a topic deletion to
	// the master it names (broker id 0): the new one, which alone loses it.
	goClientDeletesOnMaster(t, nsA.Addr, goTopic, master, b, c)
	for _, ns := range procs {
		eventually(t, 30*time.Second, "the new master's own registration on masterEpoch 2", func() error {
			if sv, err := stateVersionOf(ns.Addr, cluster, set, master, 0); err != nil || sv != 2 {
				return fmt.Errorf("stateVersion %d %v", sv, err)
			}
			return nil
		})
	}
	// The server that does not know the code cost one line, no retries.
	out, err := os.ReadFile(ctl.procs[leader].logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "NameServer does not know election notices"); n != 1 {
		t.Fatalf("the leader logged the unsupported notice %d times, want once:\n%s", n, out)
	}
}

// Issue 24 item 3 with a real stale master: the master paused (SIGSTOP, its
// connections stay open, it stays live in the NameServer) is passed over
// by the controller once its heartbeats stop; the election takes it out of
// the route of the NameServer embedding the controller. Resumed, it keeps
// registering as id 0 on its old epoch until it learns its new role: the
// route never shows it at id 0 again, and it comes back as a slave.
func TestPausedMasterIsTakenOutAndFencedOnResume(t *testing.T) {
	nss, ctl := startEmbeddedGroup(t, 1, func(int) []string { return []string{"scanNotActiveBrokerInterval=500"} })
	ns := nss[0]
	controllerLeader(t, ctl)
	const cluster, set = "ctl-cluster", "ctl-paused"
	conf := electionBrokerConf(ctl, 500*time.Millisecond)
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns.process}, extra: conf})
	eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns.process}, extra: conf})
	eventually(t, 30*time.Second, "b as slave 2", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	probe := ctltest.NewBroker(t, cluster, set, ctl)
	eventually(t, 30*time.Second, "b in the in-sync set", func() error {
		if _, sss := probe.ReplicaInfo(t); fmt.Sprint(sss.SyncStateSet) != "[1 2]" {
			return fmt.Errorf("in-sync set %v", sss.SyncStateSet)
		}
		return nil
	})

	paused := time.Now()
	if err := a.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			_ = a.cmd.Process.Signal(syscall.SIGCONT)
		}
	}
	defer resume()
	// controllerHeartBeatTimeoutMills (3 s) and the 500 ms scan, then the election.
	eventually(t, 20*time.Second, "b as master, a out", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr}))
	t.Logf("SIGSTOP of the master -> new master alone in the route: %s", time.Since(paused).Round(time.Millisecond))
	out, err := os.ReadFile(ns.logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `removed="`+a.Addr+`"`) {
		t.Fatalf("no election took the paused master %s out of the route:\n%s", a.Addr, out)
	}

	resume()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ids, err := routeIDs(ns.Addr, set); err == nil && ids[0] != b.Addr {
			t.Fatalf("after the old master resumed the route's id 0 is %q: %v", ids[0], ids)
		}
	}
	eventually(t, 30*time.Second, "a back as slave 1", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr, 1: a.Addr}))
	t.Logf("registrations of the resumed old master refused as fenced: %v",
		metricValue(t, ns, `rocketmq_namesrv_registrations_refused_total{reason="fenced_by_controller"}`))
}
