package node

import (
	"encoding/json"
	"hash/crc64"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// bufferLog is a logger whose lines the test reads.
func bufferLog() (*logrus.Entry, *testlog.Buffer) {
	var buf testlog.Buffer
	logger := logrus.New()
	logger.SetOutput(&buf)
	logger.SetLevel(logrus.InfoLevel)
	return logrus.NewEntry(logger), &buf
}

// brokerSets is the sets a node's state holds.
func brokerSets(n *Node) []string {
	var names []string
	n.fsm.Read(func(s *controller.State) { names = s.BrokerNames() })
	slices.Sort(names)
	return names
}

// snapshotGroup runs one node that registers a set, snapshots, and again,
// snapshots times, then one set more (entries after the last snapshot), and
// stops it; it returns the config and the snapshot folders, newest first.
func snapshotGroup(t *testing.T, snapshots int, tweak func(*config.Config)) (*config.Config, []string) {
	t.Helper()
	g := startGroup(t, 1, tweak)
	g.leader(t)
	n := g.svcs[0].Node
	for i := range snapshots + 1 {
		ctltest.NewBroker(t, "cluster-a", "set-"+string(rune('a'+i)), g.addrs).Register(t)
		if i < snapshots {
			if err := n.raft.Snapshot().Error(); err != nil {
				t.Fatalf("snapshot %d: %v", i, err)
			}
		}
	}
	g.stop(t, 0)
	metas, err := os.ReadDir(filepath.Join(StoreDir(g.cfgs[0]), "snapshots"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, m := range metas {
		dirs = append(dirs, filepath.Join(StoreDir(g.cfgs[0]), "snapshots", m.Name()))
	}
	slices.Sort(dirs)
	slices.Reverse(dirs)
	if len(dirs) != snapshots {
		t.Fatalf("snapshot folders %v, want %d", dirs, snapshots)
	}
	return g.cfgs[0], dirs
}

// startErr starts a node on cfg and returns the start's error, a panic
// made an error so the test can report it.
func startErr(t *testing.T, cfg *config.Config, log *logrus.Entry) (svc *Service, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("start panicked: %v", r)
		}
	}()
	return Start(cfg, log)
}

// A raft.db holding a configuration entry hashicorp/raft cannot decode is
// refused at start with an error naming the file and the index; it used to
// panic at every start.
func TestStartRefusesARaftDBWithABadConfigurationEntry(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	g.stop(t, 0)
	db := filepath.Join(StoreDir(g.cfgs[0]), "raft.db")
	store, err := raftboltdb.NewBoltStore(db)
	if err != nil {
		t.Fatal(err)
	}
	last, _ := store.LastIndex()
	if err := store.StoreLog(&raft.Log{Index: last + 1, Term: 1, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	store.Close()

	svc, err := startErr(t, g.cfgs[0], testlog.Discard())
	if err == nil {
		svc.Shutdown(t.Context())
		t.Fatal("start succeeded on a raft.db with a bad configuration entry")
	}
	if !strings.Contains(err.Error(), db) || !strings.Contains(err.Error(), "index "+itoa(last+1)) {
		t.Fatalf("error %q names neither %s nor index %d", err, db, last+1)
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// The newest snapshot damaged (its state.bin, or its meta.json), the node
// starts from the older good one and replays the log after it: the state is
// whole, and the log names the folder skipped.
func TestStartFallsBackPastADamagedNewestSnapshot(t *testing.T) {
	for _, damage := range []string{"state.bin", "meta.json", "undecodable"} {
		t.Run(damage, func(t *testing.T) {
			cfg, dirs := snapshotGroup(t, 3, func(c *config.Config) { c.TrailingLogs = 1000 })
			file := filepath.Join(dirs[0], damage)
			if damage == "undecodable" {
				// Its CRC right, so raft opens it and our FSM's Restore
				// is what refuses it.
				file = filepath.Join(dirs[0], "state.bin")
				rewriteSnapshotState(t, dirs[0], []byte(`{"version":1,"replicaInfo":7}`))
			} else {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for i := range b[:min(len(b), 16)] {
					b[i] ^= 0x5a
				}
				if err := os.WriteFile(file, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			log, lines := bufferLog()
			svc, err := startErr(t, cfg, log)
			if err != nil {
				t.Fatalf("start: %v", err)
			}
			defer svc.Shutdown(t.Context())
			waitFor(t, "the restarted node to lead", svc.Node.Serving)
			if got, want := brokerSets(svc.Node), []string{"set-a", "set-b", "set-c", "set-d"}; !slices.Equal(got, want) {
				t.Fatalf("sets %v, want %v", got, want)
			}
			if !strings.Contains(lines.String(), "controller snapshot damaged") || !strings.Contains(lines.String(), file) {
				t.Fatalf("the log does not name the skipped snapshot %s:\n%s", dirs[0], lines)
			}
			if damage == "undecodable" && !strings.Contains(lines.String(), "failed to restore snapshot") {
				t.Fatalf("raft did not get to the FSM's Restore:\n%s", lines)
			}
		})
	}
}

// The newest snapshot damaged and the good older one behind the log's first
// entry (compacted away): the start is refused with an error naming the
// damaged snapshot, not a panic.
func TestStartRefusesADamagedSnapshotTheLogCannotReplace(t *testing.T) {
	cfg, dirs := snapshotGroup(t, 2, func(c *config.Config) { c.TrailingLogs = 0 })
	file := filepath.Join(dirs[0], "state.bin")
	if err := os.WriteFile(file, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, err := startErr(t, cfg, testlog.Discard())
	if err == nil {
		svc.Shutdown(t.Context())
		t.Fatal("start succeeded")
	}
	if !strings.Contains(err.Error(), dirs[0]) {
		t.Fatalf("error %q does not name %s", err, dirs[0])
	}
}

// A raft.db whose bytes are damaged (its header, or pages in the middle,
// where bbolt may panic reading them) is refused at start with an error
// naming the file, not a panic.
func TestStartRefusesADamagedRaftDB(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   func(size int) int
	}{
		{"header", func(int) int { return 0 }},
		{"pages", func(size int) int { return size / 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := startGroup(t, 1, nil)
			g.leader(t)
			for i := range 3 {
				ctltest.NewBroker(t, "cluster-a", "set-"+string(rune('a'+i)), g.addrs).Register(t)
			}
			g.stop(t, 0)
			db := filepath.Join(StoreDir(g.cfgs[0]), "raft.db")
			b, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			at := tc.at(len(b))
			for i := at; i < min(len(b), at+4096); i++ {
				b[i] ^= 0xa5
			}
			if err := os.WriteFile(db, b, 0o600); err != nil {
				t.Fatal(err)
			}
			svc, err := startErr(t, g.cfgs[0], testlog.Discard())
			if err == nil {
				svc.Shutdown(t.Context())
				t.Fatal("start succeeded on a damaged raft.db")
			}
			if !strings.Contains(err.Error(), db) {
				t.Fatalf("error %q does not name %s", err, db)
			}
			t.Logf("refused: %v", err)
		})
	}
}

// BenchmarkCheckStore measures the start check on a raft.db as large as the
// defaults let the log grow (controllerTrailingLogs 10240 behind a snapshot
// plus controllerSnapshotThreshold 8192 before the next) and on five times
// that, each entry a registration's events.
func BenchmarkCheckStore(b *testing.B) {
	for _, entries := range []int{18432, 5 * 18432} {
		b.Run(strconv.Itoa(entries), func(b *testing.B) {
			dir := b.TempDir()
			store, err := raftboltdb.NewBoltStore(filepath.Join(dir, "raft.db"))
			if err != nil {
				b.Fatal(err)
			}
			data, err := controller.EncodeEntry([]controller.Event{controller.ApplyBrokerIDEvent{ClusterName: "cluster-a",
				BrokerName: "broker-set-with-a-long-name", BrokerAddress: "10.0.0.1:10911", NewBrokerID: 1,
				RegisterCheckCode: "10.0.0.1:10911;1796639190980"}})
			if err != nil {
				b.Fatal(err)
			}
			batch := make([]*raft.Log, 0, 1024)
			for i := 1; i <= entries; i++ {
				batch = append(batch, &raft.Log{Index: uint64(i), Term: 1, Type: raft.LogCommand, Data: data})
				if len(batch) == cap(batch) || i == entries {
					if err := store.StoreLogs(batch); err != nil {
						b.Fatal(err)
					}
					batch = batch[:0]
				}
			}
			store.Close()
			b.ResetTimer()
			for range b.N {
				if _, err := checkStore(dir, testlog.Discard()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// rewriteSnapshotState replaces a snapshot's state.bin and sets its
// meta.json's size and CRC (raft's CRC-64 ECMA) to match.
func rewriteSnapshotState(t *testing.T, dir string, state []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "state.bin"), state, 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	h := crc64.New(crc64.MakeTable(crc64.ECMA))
	h.Write(state)
	meta["Size"], meta["CRC"] = len(state), h.Sum(nil)
	if raw, err = json.Marshal(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}
