package route

import (
	"errors"
	"fmt"
	"testing"
)

// electionSet is a controller-managed set registered here: a master at
// epoch 1 and two slaves, as our brokers register in controller mode.
func electionSet(t *testing.T, fencing bool) (*Manager, brokerInfo, brokerInfo, brokerInfo) {
	t.Helper()
	m := NewManager(Config{SupportActingMaster: true, ControllerFencing: fencing})
	master := controllerMaster("127.0.0.1:10911", 1, 1)
	registerNormal(t, m, master, "T")
	slave1, slave2 := controllerMaster("127.0.0.1:10921", 2, 1), controllerMaster("127.0.0.1:10931", 3, 1)
	slave1.id, slave2.id = 2, 3
	registerNormal(t, m, slave1, "T")
	registerNormal(t, m, slave2, "T")
	return m, master, slave1, slave2
}

func applyElection(t *testing.T, m *Manager, b brokerInfo, addr string, epoch int64) ElectionOutcome {
	t.Helper()
	outcome, err := m.ApplyElection(Election{Cluster: b.cluster, BrokerName: b.name, MasterAddr: addr, Epoch: epoch, Now: testNow})
	if err != nil {
		t.Fatalf("ApplyElection: %v", err)
	}
	return outcome
}

func TestElectionMovesTheNewMasterToIdZeroAtOnce(t *testing.T) {
	m, master, slave1, slave2 := electionSet(t, true)
	outcome := applyElection(t, m, master, slave1.addr, 2)
	if want := (ElectionOutcome{Applied: true, Removed: master.addr, Moved: true}); outcome != want {
		t.Fatalf("outcome %+v, want %+v", outcome, want)
	}
	route := mustRoute(t, m, "T")
	addrs := route.BrokerDatas[0].BrokerAddrs
	if len(addrs) != 2 || addrs[0] != slave1.addr || addrs[3] != slave2.addr {
		t.Fatalf("route's brokerAddrs %v, want {0: %s, 3: %s}", addrs, slave1.addr, slave2.addr)
	}
	if route.QueueDatas[0].Perm&PermWrite == 0 {
		t.Fatalf("the set's topic lost write permission: %+v", route.QueueDatas[0])
	}
	// The old master's heartbeats refresh nothing; its data version query
	// sends it to register, where the fence waits.
	if m.Heartbeat(master.cluster, master.addr, testNow) {
		t.Fatal("the old master's heartbeat found a live entry")
	}
	if changed, _ := m.QueryDataVersion(master.cluster, master.addr, &master.dv, testNow); !changed {
		t.Fatal("the old master's data version query was answered unchanged")
	}
	// The same election again, and an older one, change nothing.
	if outcome := applyElection(t, m, master, slave2.addr, 2); outcome.Applied {
		t.Fatalf("a repeated epoch applied: %+v", outcome)
	}
	if outcome := applyElection(t, m, master, master.addr, 1); outcome.Applied {
		t.Fatalf("an older epoch applied: %+v", outcome)
	}
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[0]; got != slave1.addr {
		t.Fatalf("id 0 = %s after the repeats", got)
	}
	// The slaves learn their new master from their next registration.
	slave2.dv.StateVersion = 2
	if got := mustRegister(t, m, slave2.nextVersion().request(withBaseTopic(16, "T")...)); got.MasterAddr != slave1.addr {
		t.Fatalf("a slave's registration answered master %q", got.MasterAddr)
	}
}

func TestElectionWithoutMasterTakesTheOldOneOut(t *testing.T) {
	m, master, _, _ := electionSet(t, true)
	if outcome := applyElection(t, m, master, "", 2); outcome.Removed != master.addr {
		t.Fatalf("outcome %+v", outcome)
	}
	if addrs := m.BrokerMemberGroup(master.cluster, master.name); addrs[0] != "" || len(addrs) != 2 {
		t.Fatalf("members %v, want the two slaves and no id 0", addrs)
	}
	// An unknown set records the fence only.
	if outcome := applyElection(t, m, master.withName("elsewhere"), "127.0.0.1:1", 5); !outcome.Unknown {
		t.Fatalf("unknown set: %+v", outcome)
	}
	other := controllerMaster("127.0.0.1:2", 9, 4).withName("elsewhere")
	if _, _, err := m.RegisterBroker(other.request(withBaseTopic(16, "T")...), testNow); !errors.Is(err, ErrFencedByController) {
		t.Fatalf("a stale master of a set known only by its election: err %v", err)
	}
}

func TestFenceRefusesStaleMasters(t *testing.T) {
	m, master, slave1, slave2 := electionSet(t, true)
	applyElection(t, m, master, slave1.addr, 2)
	for _, c := range []struct {
		name string
		b    brokerInfo
	}{
		{"the old master on its old epoch", master.nextVersion()},
		{"the old master claiming the new epoch", controllerMaster(master.addr, master.conn, 2)},
		{"a slave claiming id 0 on the new epoch", func() brokerInfo { b := slave2; b.id, b.dv.StateVersion = 0, 2; return b }()},
	} {
		_, _, err := m.RegisterBroker(c.b.request(withBaseTopic(16, "T")...), testNow)
		if !errors.Is(err, ErrFencedByController) {
			t.Fatalf("%s: err %v, want ErrFencedByController", c.name, err)
		}
		if got := m.BrokerMemberGroup(master.cluster, master.name)[0]; got != slave1.addr {
			t.Fatalf("%s: id 0 = %s", c.name, got)
		}
	}
	if m.Generation(master.cluster, master.addr) != 0 {
		t.Fatal("a refused registration left a live entry")
	}
	// The old master registering as a slave is not fenced.
	asSlave := controllerMaster(master.addr, master.conn, 2)
	asSlave.id = 1
	registerNormal(t, m, asSlave, "T")
	// The elected master on its epoch is admitted; a later epoch than the
	// last election seen is taken as the controller's (a missed notice).
	elected := controllerMaster(slave1.addr, slave1.conn, 2)
	registerNormal(t, m, elected, "T")
	later := controllerMaster(slave2.addr, slave2.conn, 3)
	registerNormal(t, m, later, "T")
	if epoch, addr, _ := m.ManagedEpoch(master.name); epoch != 3 || addr != slave2.addr {
		t.Fatalf("after a newer epoch: %d %s", epoch, addr)
	}
	if got := m.BrokerMemberGroup(master.cluster, master.name)[0]; got != slave2.addr {
		t.Fatalf("id 0 = %s, want %s", got, slave2.addr)
	}
}

func TestFencingOffKeepsJavasRule(t *testing.T) {
	m, master, slave1, _ := electionSet(t, false)
	applyElection(t, m, master, slave1.addr, 2)
	// Java's rule: the old master, alone at id 0 again, is taken back.
	mustRegister(t, m, master.nextVersion().request(withBaseTopic(16, "T")...))
	if got := m.BrokerMemberGroup(master.cluster, master.name)[0]; got != master.addr {
		t.Fatalf("fencing off: id 0 = %s, want the old master %s back (Java's rule)", got, master.addr)
	}
}

// The elected master's periodic registration as a slave, sent before it
// learned its role, keeps it at id 0; once it registers on the new epoch
// its own id 0 stands. With fencing off it moves back, as in Java.
func TestElectedMasterRegisteringAsASlaveStaysIdZero(t *testing.T) {
	for _, fencing := range []bool{true, false} {
		m, master, slave1, _ := electionSet(t, fencing)
		applyElection(t, m, master, slave1.addr, 2)
		registerNormal(t, m, slave1.nextVersion(), "T") // still id 2, stateVersion 1
		got := m.BrokerMemberGroup(master.cluster, master.name)
		if fencing && (got[0] != slave1.addr || got[2] != "") {
			t.Fatalf("fencing on: members %v, want %s kept at id 0", got, slave1.addr)
		}
		if !fencing && (got[0] != "" || got[2] != slave1.addr) {
			t.Fatalf("fencing off: members %v, want %s back at id 2 (Java's rule)", got, slave1.addr)
		}
	}
}

// An elected master that never registered here is routed at once; a new
// set past MaxManagedSets is refused and keeps Java's rule.
func TestElectionOfAnUnregisteredMasterAndTheSetLimit(t *testing.T) {
	m, master, slave1, slave2 := electionSet(t, true)
	outcome := applyElection(t, m, master, "127.0.0.1:10999", 2)
	if want := (ElectionOutcome{Applied: true, Removed: master.addr, Added: true}); outcome != want {
		t.Fatalf("outcome %+v, want %+v", outcome, want)
	}
	want := map[int64]string{0: "127.0.0.1:10999", 2: slave1.addr, 3: slave2.addr}
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs; len(got) != 3 || got[0] != want[0] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("brokerAddrs %v, want %v", got, want)
	}
	for i := len(m.managed); i < MaxManagedSets; i++ {
		m.managed[fmt.Sprintf("set-%d", i)] = managedSet{epoch: 1}
	}
	_, err := m.ApplyElection(Election{Cluster: "c", BrokerName: "one-too-many", MasterAddr: "127.0.0.1:1", Epoch: 1})
	if !errors.Is(err, ErrLimitExceeded) {
		t.Fatalf("election past the limit: %v", err)
	}
	if outcome := applyElection(t, m, master, slave1.addr, 3); !outcome.Applied {
		t.Fatal("a recorded set's election was refused at the limit")
	}
}
