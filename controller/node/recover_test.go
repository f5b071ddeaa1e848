package node

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// The recovery docs/operations.md gives for a group: a node whose store is
// refused has its folder removed and starts again; it joins from the leader
// (a snapshot and the log after it) with the group's whole state.
func TestAWipedNodeRejoinsTheGroupWithItsState(t *testing.T) {
	g := startGroup(t, 3, func(c *config.Config) { c.TrailingLogs, c.SnapshotThreshold, c.SnapshotIntervalMillis = 0, 1, 100 })
	g.leader(t)
	for _, name := range []string{"set-a", "set-b"} {
		ctltest.NewBroker(t, "cluster-a", name, g.addrs).Register(t)
	}
	victim := (g.leader(t) + 1) % 3
	waitFor(t, "the victim to hold both sets", func() bool { return len(brokerSets(g.svcs[victim].Node)) == 2 })
	g.stop(t, victim)
	if err := os.RemoveAll(StoreDir(g.cfgs[victim])); err != nil {
		t.Fatal(err)
	}
	ctltest.NewBroker(t, "cluster-a", "set-c", g.addrs).Register(t)
	leader := g.svcs[g.leader(t)].Node
	// The log before the leader's snapshot is gone: the wiped node needs
	// the snapshot.
	waitFor(t, "the leader's snapshot", func() bool { return raftStat(leader, "last_snapshot_index") > 0 })
	g.start(t, victim)
	waitFor(t, "the wiped node to catch up", func() bool {
		return slices.Equal(brokerSets(g.svcs[victim].Node), []string{"set-a", "set-b", "set-c"})
	})
}

// The recovery docs/operations.md gives for a single node whose newest
// snapshot is damaged and whose log no longer reaches back to the older
// one: raft.db and the damaged snapshot moved away, it starts from the
// older snapshot (the changes after it are lost) and leads.
func TestASingleNodeStartsFromItsOlderSnapshotOnceRaftDBIsMovedAway(t *testing.T) {
	cfg, dirs := snapshotGroup(t, 2, func(c *config.Config) { c.TrailingLogs = 0 })
	if err := os.WriteFile(filepath.Join(dirs[0], "state.bin"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if svc, err := startErr(t, cfg, testlog.Discard()); err == nil {
		svc.Shutdown(t.Context())
		t.Fatal("start succeeded")
	}
	aside := t.TempDir()
	for _, p := range []string{dirs[0], filepath.Join(StoreDir(cfg), "raft.db")} {
		if err := os.Rename(p, filepath.Join(aside, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	svc, err := startErr(t, cfg, testlog.Discard())
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer svc.Shutdown(t.Context())
	waitFor(t, "the node to lead", svc.Node.Serving)
	if got := brokerSets(svc.Node); !slices.Equal(got, []string{"set-a"}) {
		t.Fatalf("sets %v, want the older snapshot's [set-a]", got)
	}
	b := ctltest.NewBroker(t, "cluster-a", "set-z", []string{svc.Node.Self().Addr})
	b.Register(t)
	if got := brokerSets(svc.Node); !slices.Equal(got, []string{"set-a", "set-z"}) {
		t.Fatalf("sets %v after a new registration", got)
	}
}
