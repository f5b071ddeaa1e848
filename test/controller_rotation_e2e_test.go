package test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
)

// syncStateView is mqadmin getSyncStateSet's answer for one set, read
// back from its text: the master, and each replica's address -> alive on
// either side of the in-sync line.
type syncStateView struct {
	masterID, masterAddr string
	masterEpoch          int
	inSync, notInSync    map[string]bool
}

var (
	replicaLine = regexp.MustCompile(`^(InSyncReplica|NotInSyncReplica):\tReplicaIdentity\{brokerName='[^']*', brokerId=\d+, brokerAddress='([^']*)', alive=(true|false)\}$`)
	headerLine  = regexp.MustCompile(`^#(\w+)\t(.*)$`)
)

// parseSyncStateSet reads mqadmin getSyncStateSet's output for one set;
// #SyncStateSetNums must count the InSyncReplica lines.
func parseSyncStateSet(out string) (syncStateView, error) {
	v := syncStateView{inSync: map[string]bool{}, notInSync: map[string]bool{}}
	nums := -1
	for _, line := range strings.Split(out, "\n") {
		if m := replicaLine.FindStringSubmatch(line); m != nil {
			side := v.inSync
			if m[1] == "NotInSyncReplica" {
				side = v.notInSync
			}
			side[m[2]] = m[3] == "true"
			continue
		}
		m := headerLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var err error
		switch m[1] {
		case "MasterBrokerId":
			v.masterID = m[2]
		case "MasterAddr":
			v.masterAddr = m[2]
		case "MasterEpoch":
			v.masterEpoch, err = strconv.Atoi(m[2])
		case "SyncStateSetNums":
			nums, err = strconv.Atoi(m[2])
		}
		if err != nil {
			return v, fmt.Errorf("%q: %w", line, err)
		}
	}
	if nums != len(v.inSync) {
		return v, fmt.Errorf("#SyncStateSetNums %d for %d InSyncReplica lines:\n%s", nums, len(v.inSync), out)
	}
	return v, nil
}

// alive is the replica table a view should show: each address, alive or not.
func alive(on bool, addrs ...string) map[string]bool {
	m := map[string]bool{}
	for _, a := range addrs {
		m[a] = on
	}
	return m
}

// waitSyncState runs mqadmin getSyncStateSet against the controller at
// ctl (any node: mqadmin asks it for the leader) until the set's master is
// masterAddr and its replicas are inSync and notInSync (address -> alive).
// mqadmin is a process: a miss waits 250 ms before the next run.
func waitSyncState(t *testing.T, within time.Duration, ctl, set, masterAddr string, inSync, notInSync map[string]bool) syncStateView {
	t.Helper()
	var view syncStateView
	eventually(t, within, "mqadmin getSyncStateSet of "+set, func() (err error) {
		defer func() {
			if err != nil {
				time.Sleep(250 * time.Millisecond)
			}
		}()
		r := mqadmin(t, "getSyncStateSet", "-a", ctl, "-b", set)
		if r.code != 0 {
			return fmt.Errorf("exit %d: %s", r.code, r.stderr)
		}
		if view, err = parseSyncStateSet(r.stdout); err != nil {
			return err
		}
		if view.masterAddr != masterAddr || !maps.Equal(view.inSync, inSync) || !maps.Equal(view.notInSync, notInSync) {
			return fmt.Errorf("master %s in sync %v not in sync %v, want master %s in sync %v not in sync %v",
				view.masterAddr, view.inSync, view.notInSync, masterAddr, inSync, notInSync)
		}
		return nil
	})
	return view
}

// controllerIDOf is the id the controller gave a broker, from its
// brokerIdentity file (cluster#set#id).
func controllerIDOf(t *testing.T, p *process) int64 {
	t.Helper()
	meta, err := os.ReadFile(filepath.Join(p.DataDir, "brokerIdentity"))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Split(string(meta), "#")
	id, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	if err != nil {
		t.Fatalf("brokerIdentity %q: %v", meta, err)
	}
	return id
}

// Issue 24 item 5, standalone group: three of our brokers in one set under
// a 3-node cmd/controller group that tells our NameServer its elections.
// Three rounds: all three in the in-sync set (the master's
// ALTER_SYNC_STATE_SET, read with mqadmin getSyncStateSet from a different
// node each round), kill -9 of the master, a survivor at id 0 in the
// NameServer's route and in the route the Apache Go client reads (its topic
// deletion goes to the new master alone), the in-sync set down to the two
// survivors with the killed one shown dead, then the killed broker
// restarted: a slave again under its old controller id, and the in-sync set
// back to three. The elector prefers the highest offset, which the
// simulation gives the longest running broker, so the restarted one is not
// the next master and each broker is killed once; asserted is what the
// heartbeats' timing cannot upset: at least two different masters.
func TestBrokersRotateThroughFailovers(t *testing.T) {
	ctlAddrs, peers := groupPeers(t, 3)
	ns := startNamesrv(t, "-controllerAddr", strings.Join(ctlAddrs, ";"))
	ctl := startControllerGroupAt(t, ctlAddrs, peers, "-namesrvAddr", ns.Addr)
	ctl.leader(t, 30*time.Second)
	const cluster, set = "ctl-cluster", "ctl-rotate"
	conf := electionBrokerConf(ctl.addrs, 500*time.Millisecond)
	spec := brokerSpec{cluster: cluster, name: set, nameServers: []*process{ns}, extra: conf}
	a := startBroker(t, spec)
	eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	b := startBroker(t, spec)
	eventually(t, 30*time.Second, "b as slave", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	c := startBroker(t, spec)
	eventually(t, 30*time.Second, "c as slave", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr, 3: c.Addr}))
	brokers := []*process{a, b, c}
	addrs := []string{a.Addr, b.Addr, c.Addr}
	view := waitSyncState(t, 30*time.Second, ctl.addrs[0], set, a.Addr, alive(true, addrs...), alive(true))
	if view.masterID != "1" || view.masterEpoch != 1 {
		t.Fatalf("first master id %s epoch %d, want 1 and 1", view.masterID, view.masterEpoch)
	}

	master := a
	var masters []string
	name := map[string]string{a.Addr: "a", b.Addr: "b", c.Addr: "c"}
	for round := range 3 {
		var survivors []*process
		var survivorAddrs []string
		for _, p := range brokers {
			if p != master {
				survivors, survivorAddrs = append(survivors, p), append(survivorAddrs, p.Addr)
			}
		}
		topic := fmt.Sprintf("RotateTopic%d", round)
		goTopicOnEvery(t, ns.Addr, set, topic, brokers...)

		killed := time.Now()
		master.Kill()
		next := newMasterIn(t, ns.Addr, set, master.Addr, survivorAddrs...)
		t.Logf("round %d: kill -9 of master %s -> %s at id 0 in the route answer: %s", round, name[master.Addr], name[next],
			time.Since(killed).Round(time.Millisecond))
		// The slave copies its master's topic table (slaveSyncPeriod) and
		// loses the topic too: only the master is asked.
		goClientDeletesOnMaster(t, ns.Addr, topic, next, survivors[slices.IndexFunc(survivors, func(p *process) bool { return p.Addr == next })])
		// The survivors only: the killed master shows dead, out of the set.
		ctlAddr := ctl.addrs[round]
		view := waitSyncState(t, 30*time.Second, ctlAddr, set, next, alive(true, survivorAddrs...), alive(false, master.Addr))
		if view.masterEpoch != round+2 {
			t.Fatalf("round %d: masterEpoch %d, want %d", round, view.masterEpoch, round+2)
		}
		t.Logf("round %d: in-sync set of the two survivors: %s", round, time.Since(killed).Round(time.Millisecond))

		// Back as a slave under its old id, and in the in-sync set again.
		want := map[int64]string{0: next}
		for _, p := range brokers {
			if p.Addr != next {
				want[controllerIDOf(t, p)] = p.Addr
			}
		}
		master.Restart()
		eventually(t, 30*time.Second, "the killed master back as a slave", wantRoute(ns.Addr, set, want))
		waitSyncState(t, 30*time.Second, ctlAddr, set, next, alive(true, addrs...), alive(true))
		masters = append(masters, name[next])
		for _, p := range brokers {
			if p.Addr == next {
				master = p
			}
		}
	}
	if distinct := slices.Compact(slices.Sorted(slices.Values(masters))); len(distinct) < 2 {
		t.Fatalf("masters over the three rounds %v: fewer than two brokers", masters)
	}
	t.Logf("masters after the three kills: %v (a first)", masters)
}

// Issue 24 item 5, unclean elections, under a 3-node group embedded in
// three NameServers: the slave b reports no progress (simulatedOffsetRate
// 0) and the master keeps it out of the in-sync set (haMaxGapNotInSync 4
// KiB) while it is alive. Kill -9 of the master: with
// enableElectUncleanMaster=false nobody is elected (the controller clears
// the master, no NameServer's route has an id 0, mqadmin electMaster of b
// answers 2012); enableElectUncleanMaster=true set with mqadmin on every
// node, an election (mqadmin's, or b's own on its next poll) makes b master
// and every route shows it at id 0.
func TestUncleanElectionOffAndOn(t *testing.T) {
	nss, ctl := startEmbeddedGroup(t, 3, func(int) []string { return nil })
	controllerLeader(t, ctl)
	var procs []*process
	for _, ns := range nss {
		procs = append(procs, ns.process)
	}
	const cluster, set = "ctl-cluster", "ctl-unclean"
	conf := append(electionBrokerConf(ctl, 500*time.Millisecond), "haMaxGapNotInSync=4096", "haMaxTimeSlaveNotCatchup=2000")
	a := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: conf})
	for _, ns := range nss {
		eventually(t, 30*time.Second, "a as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
	}
	b := startBroker(t, brokerSpec{cluster: cluster, name: set, nameServers: procs, extra: append(conf, "simulatedOffsetRate=0")})
	for _, ns := range nss {
		eventually(t, 30*time.Second, "b as slave 2", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr, 2: b.Addr}))
	}
	all := strings.Join(ctl, ";")
	wantUnclean := func(v string) {
		t.Helper()
		out := mustMqadmin(t, "getControllerConfig", "-a", all)
		if n := strings.Count(out, "enableElectUncleanMaster                          =  "+v+"\n"); n != 3 {
			t.Fatalf("enableElectUncleanMaster=%s on %d of 3 nodes:\n%s", v, n, out)
		}
	}
	wantUnclean("false")
	// b alive but out of sync, and it stays so over the master's checks.
	waitSyncState(t, 30*time.Second, ctl[1], set, a.Addr, alive(true, a.Addr), alive(true, b.Addr))
	time.Sleep(2 * time.Second)
	waitSyncState(t, 5*time.Second, ctl[2], set, a.Addr, alive(true, a.Addr), alive(true, b.Addr))

	a.Kill()
	// Each controller-triggered try that elects nobody (up to
	// electMasterMaxRetryCount) clears the master again, one epoch each.
	view := waitSyncState(t, 30*time.Second, ctl[0], set, "null", alive(false, a.Addr), alive(true, b.Addr))
	if view.masterID != "null" || view.masterEpoch < 2 {
		t.Fatalf("after the kill: master %s epoch %d, want none on epoch 2 or later", view.masterID, view.masterEpoch)
	}
	r := mqadmin(t, "electMaster", "-a", ctl[1], "-b", strconv.FormatInt(controllerIDOf(t, b), 10), "-bn", set, "-c", cluster)
	if r.code == 0 || !strings.Contains(r.stderr, "CODE: 2012") || !strings.Contains(r.stderr, "Failed to elect a new master") {
		t.Fatalf("electMaster of the out-of-sync b, unclean off: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// b asks for its own election every poll (500 ms) and is refused: for
	// 3 s no route gains an id 0.
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, ns := range nss {
			if ids, err := routeIDs(ns.Addr, set); err != nil || ids[0] != "" || ids[2] != b.Addr {
				t.Fatalf("%s's route with unclean elections off: %v %v", ns.Addr, ids, err)
			}
		}
	}

	out := mustMqadmin(t, "updateControllerConfig", "-a", all, "-k", "enableElectUncleanMaster", "-v", "true")
	if !strings.HasPrefix(out, "update controller config success!") {
		t.Fatalf("updateControllerConfig: %q", out)
	}
	wantUnclean("true")
	enabled := time.Now()
	r = mqadmin(t, "electMaster", "-a", ctl[2], "-b", strconv.FormatInt(controllerIDOf(t, b), 10), "-bn", set, "-c", cluster)
	switch {
	case r.code == 0 && strings.Contains(r.stdout, "#BrokerMasterAddr\t"+b.Addr+"\n"):
		t.Logf("mqadmin electMaster elected b")
	case r.code != 0 && strings.Contains(r.stderr, "CODE: 2011"): // b's own poll came first
		t.Logf("b elected itself before mqadmin's election")
	default:
		t.Fatalf("electMaster of b, unclean on: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, ns := range nss {
		eventually(t, 20*time.Second, "b as master", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr}))
	}
	t.Logf("unclean elections on -> b at id 0 in every route: %s", time.Since(enabled).Round(time.Millisecond))
	view = waitSyncState(t, 10*time.Second, ctl[0], set, b.Addr, alive(true, b.Addr), alive(false, a.Addr))
	for _, ns := range nss {
		eventually(t, 20*time.Second, "b's own registration on the new masterEpoch", func() error {
			if sv, err := stateVersionOf(ns.Addr, cluster, set, b.Addr, 0); err != nil || sv != int64(view.masterEpoch) {
				return fmt.Errorf("stateVersion %d (%v), want masterEpoch %d", sv, err, view.masterEpoch)
			}
			return nil
		})
	}
}

// goTopicOnEvery creates topic on each broker with the Apache Go client's
// admin and waits until ns's route of it names the set.
func goTopicOnEvery(t *testing.T, ns, set, topic string, brokers ...*process) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	adm := newGoAdmin(t, ns)
	for _, p := range brokers {
		if err := adm.CreateTopic(ctx, admin.WithTopicCreate(topic), admin.WithBrokerAddrCreate(p.Addr)); err != nil {
			t.Fatalf("CreateTopic on %s: %v", p.Addr, err)
		}
	}
	eventually(t, 10*time.Second, "the topic in the route", func() error {
		_, err := routedAddrsOf(ns, topic, set)
		return err
	})
}

// goClientDeletesOnMaster has a fresh Apache Go client read ns's route of
// topic and send the deletion to the master it names (broker id 0): of the
// brokers, master alone must lose the topic (a slave that already follows
// that master loses it too when it copies the master's topic table).
func goClientDeletesOnMaster(t *testing.T, ns, topic, master string, brokers ...*process) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := newGoAdmin(t, ns).DeleteTopic(ctx, admin.WithTopicDelete(topic)); err != nil {
		t.Fatalf("the Go client's DeleteTopic after the failover: %v", err)
	}
	for _, p := range brokers {
		topics, err := brokerTopics(p.Addr)
		if err != nil {
			t.Fatal(err)
		}
		if _, has := topics[topic]; has == (p.Addr == master) {
			t.Fatalf("broker %s (master %v) has the topic %v after the Go client's deletion", p.Addr, p.Addr == master, has)
		}
	}
}
