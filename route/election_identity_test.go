package route

import (
	"errors"
	"strings"
	"testing"
)

func applyIdentified(t *testing.T, m *Manager, b brokerInfo, addr string, epoch int64, identity string) ElectionOutcome {
	t.Helper()
	outcome, err := m.ApplyElection(Election{Cluster: b.cluster, BrokerName: b.name, MasterAddr: addr, Epoch: epoch,
		Identity: identity, Now: testNow})
	if err != nil {
		t.Fatalf("ApplyElection: %v", err)
	}
	return outcome
}

// A controller group whose stores were recreated counts its epochs from 1
// again under a new identity: the set follows its election, and the new
// master registering with stateVersion 1 is admitted, though an election
// of masterEpoch 4 was applied before.
func TestRecreatedGroupIsFollowed(t *testing.T) {
	m, master, slave1, _ := electionSet(t, true)
	applyIdentified(t, m, master, slave1.addr, 4, "group-1")
	fresh := controllerMaster("127.0.0.1:10999", 9, 1)
	if outcome := applyIdentified(t, m, master, fresh.addr, 1, "group-2"); !outcome.Applied {
		t.Fatalf("the recreated group's election was not applied: %+v", outcome)
	}
	if epoch, addr, _ := m.ManagedEpoch(master.name); epoch != 1 || addr != fresh.addr {
		t.Fatalf("set's election %d %s, want 1 %s", epoch, addr, fresh.addr)
	}
	registerNormal(t, m, fresh, "T")
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; got != fresh.addr {
		t.Fatalf("id 0 is %q, want %s", got, fresh.addr)
	}
	// The old master, on the old group's epoch 1, is fenced: same epoch,
	// another address.
	stale := master
	stale.dv.Counter++
	if _, _, err := m.RegisterBroker(stale.request(withBaseTopic(16, "T")...), testNow); !errors.Is(err, ErrFencedByController) {
		t.Fatalf("the old master's registration: %v", err)
	}
	// Elections of the same identity keep the epoch rule.
	if outcome := applyIdentified(t, m, master, slave1.addr, 1, "group-2"); outcome.Applied {
		t.Fatalf("a repeated epoch of the same identity applied: %+v", outcome)
	}
}

// Without identities (older controllers) nothing changes: an older epoch is
// ignored. A record taken from a newer registration keeps its identity, so
// a late notice of that record is not taken for a recreated one.
func TestElectionsWithoutOrWithTheSameIdentityKeepTheEpochRule(t *testing.T) {
	m, master, slave1, slave2 := electionSet(t, true)
	applyElection(t, m, master, slave1.addr, 4)
	if outcome := applyElection(t, m, master, slave2.addr, 1); outcome.Applied {
		t.Fatalf("an older epoch without identity applied: %+v", outcome)
	}
	m2, master2, slave21, _ := electionSet(t, true)
	applyIdentified(t, m2, master2, slave21.addr, 4, "g")
	newer := slave21
	newer.id, newer.dv.StateVersion = 0, 6
	registerNormal(t, m2, newer, "T")
	if outcome := applyIdentified(t, m2, master2, master2.addr, 5, "g"); outcome.Applied {
		t.Fatalf("a late notice of the same identity applied after a newer registration: %+v", outcome)
	}
}

// An election more than MaxElectionEpochJump above the set's last one (same
// identity) is refused and changes nothing; with no record, or under a new
// identity, any epoch is taken.
func TestElectionEpochJumpIsBounded(t *testing.T) {
	m, master, slave1, slave2 := electionSet(t, true)
	m.SetConfig(Config{SupportActingMaster: true, ControllerFencing: true, MaxElectionEpochJump: 100})
	applyElection(t, m, master, slave1.addr, 5000) // no record: taken
	_, err := m.ApplyElection(Election{Cluster: master.cluster, BrokerName: master.name, MasterAddr: "6.6.6.6:10911",
		Epoch: 2147483647, Now: testNow})
	if !errors.Is(err, ErrElectionEpochJump) || !strings.Contains(err.Error(), "bound 100") {
		t.Fatalf("huge jump: %v", err)
	}
	if epoch, addr, _ := m.ManagedEpoch(master.name); epoch != 5000 || addr != slave1.addr {
		t.Fatalf("the set's election moved to %d %s", epoch, addr)
	}
	if got := mustRoute(t, m, "T").BrokerDatas[0].BrokerAddrs[MasterID]; got != slave1.addr {
		t.Fatalf("id 0 is %q", got)
	}
	if outcome := applyElection(t, m, master, slave2.addr, 5100); !outcome.Applied {
		t.Fatal("a jump of exactly the bound was refused")
	}
	if outcome := applyIdentified(t, m, master, slave1.addr, 900_000, "new-group"); !outcome.Applied {
		t.Fatal("a new identity's first election was bounded")
	}
}
