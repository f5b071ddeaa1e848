package node

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-msgpack/v2/codec"
	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"
	"go.etcd.io/bbolt"

	"github.com/gonamesrv/gonamesrv/controller"
)

// storeOpenTimeout bounds the wait for raft.db's file lock at start: a
// second process on the same store holds it, and bbolt would wait forever.
const storeOpenTimeout = 5 * time.Second

// storeReport is what checkStore found.
type storeReport struct {
	// firstIndex and lastIndex are the log's (0, 0: empty or no raft.db).
	firstIndex, lastIndex uint64
	// snapshot is the folder hashicorp/raft will restore ("" none), at
	// snapshotIndex.
	snapshot      string
	snapshotIndex uint64
	// skipped are the snapshot folders it will pass over, with why.
	skipped []string
}

// checkStore reads the store under dir before hashicorp/raft opens it, which
// panics on what it cannot decode (a configuration entry, a log entry its
// replay needs and does not find): raft.db is checked page by page and every
// entry decoded as raft and the FSM would decode it; every snapshot is
// opened (CRC) and decoded, newest first, as raft restores them, so the one
// raft will use is known; and the log must reach back to that snapshot.
// Damage is an error naming the file (and the index); a damaged snapshot
// with a good one behind it that the log covers is only logged. The cost is
// one read of raft.db and of the snapshots raft would read anyway: the log
// holds what the last snapshot left (controllerTrailingLogs) plus what came
// after (up to controllerSnapshotThreshold between two snapshot checks).
func checkStore(dir string, log *logrus.Entry) (rep storeReport, err error) {
	started := time.Now()
	db := filepath.Join(dir, "raft.db")
	if rep.firstIndex, rep.lastIndex, err = checkRaftDB(db); err != nil {
		return rep, err
	}
	if err := checkSnapshots(dir, &rep); err != nil {
		return rep, err
	}
	for _, s := range rep.skipped {
		log.WithField("snapshot", s).Error("controller snapshot damaged: skipped, an older one is restored and the log replayed after it")
	}
	if rep.lastIndex > 0 && rep.firstIndex > rep.snapshotIndex+1 {
		base := "no snapshot"
		if rep.snapshot != "" {
			base = fmt.Sprintf("the snapshot %s at index %d", rep.snapshot, rep.snapshotIndex)
		}
		return rep, &StoreError{Path: db, Err: fmt.Errorf("the log starts at index %d, after %s: entries %d-%d are gone (damaged snapshots: %s); see docs/operations.md, damaged controller store",
			rep.firstIndex, base, rep.snapshotIndex+1, rep.firstIndex-1, orNone(rep.skipped))}
	}
	log.WithFields(logrus.Fields{"dir": dir, "firstIndex": rep.firstIndex, "lastIndex": rep.lastIndex,
		"snapshot": rep.snapshot, "checkMillis": time.Since(started).Milliseconds()}).Info("controller store checked")
	return rep, nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "; ")
}

// checkRaftDB checks raft.db's pages, its stable keys, and every log entry;
// bbolt panics on some damage, which is turned into an error naming path.
func checkRaftDB(path string) (first, last uint64, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = &StoreError{Path: path, Err: fmt.Errorf("damaged: %v", r)}
		}
	}()
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: storeOpenTimeout})
	if err != nil {
		return 0, 0, &StoreError{Path: path, Err: err}
	}
	defer db.Close()
	err = db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			return fmt.Errorf("damaged: %w", err)
		}
		if conf := tx.Bucket([]byte("conf")); conf != nil {
			for _, key := range []string{"CurrentTerm", "LastVoteTerm"} {
				if v := conf.Get([]byte(key)); v != nil && len(v) != 8 {
					return fmt.Errorf("stable key %s holds %d bytes, want 8", key, len(v))
				}
			}
		}
		logs := tx.Bucket([]byte("logs"))
		if logs == nil {
			return nil
		}
		dec := codec.NewDecoderBytes(nil, &codec.MsgpackHandle{})
		return logs.ForEach(func(k, v []byte) error {
			if len(k) != 8 {
				return fmt.Errorf("log key of %d bytes", len(k))
			}
			index := binary.BigEndian.Uint64(k)
			var e raft.Log
			dec.ResetBytes(v)
			if err := dec.Decode(&e); err != nil {
				return fmt.Errorf("raft log index %d: %w", index, err)
			}
			if e.Index != index {
				return fmt.Errorf("raft log index %d holds the entry of index %d", index, e.Index)
			}
			if err := checkEntry(&e); err != nil {
				return err
			}
			if first == 0 {
				first = index
			}
			last = index
			return nil
		})
	})
	if err != nil {
		return 0, 0, &StoreError{Path: path, Err: err}
	}
	return first, last, nil
}

// checkSnapshots finds the snapshot hashicorp/raft will restore: the newest
// of those it lists (meta.json readable, at most snapshotsRetained) that
// opens (its CRC) and that the FSM decodes. The others are rep.skipped, as
// are folders whose meta.json raft cannot read (it passes over them).
func checkSnapshots(dir string, rep *storeReport) (err error) {
	base := filepath.Join(dir, "snapshots")
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &StoreError{Path: base, Err: err}
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasSuffix(e.Name(), ".tmp") {
			continue
		}
		meta := filepath.Join(base, e.Name(), "meta.json")
		var m raft.SnapshotMeta
		b, err := os.ReadFile(meta)
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil {
			rep.skipped = append(rep.skipped, fmt.Sprintf("%s: %v", meta, err))
		}
	}
	store, err := raft.NewFileSnapshotStoreWithLogger(dir, snapshotsRetained, hclog.NewNullLogger())
	if err != nil {
		return &StoreError{Path: base, Err: err}
	}
	list, err := store.List()
	if err != nil {
		return &StoreError{Path: base, Err: err}
	}
	for _, meta := range list {
		folder := filepath.Join(base, meta.ID)
		if err := restorable(store, meta.ID); err != nil {
			rep.skipped = append(rep.skipped, fmt.Sprintf("%s: %v", filepath.Join(folder, "state.bin"), err))
			continue
		}
		rep.snapshot, rep.snapshotIndex = folder, meta.Index
		return nil
	}
	if len(list) > 0 {
		return &StoreError{Path: base, Err: fmt.Errorf("none of the %d snapshots can be restored: %s", len(list), orNone(rep.skipped))}
	}
	return nil
}

// restorable opens a snapshot as raft does (the CRC of state.bin) and
// decodes it as the FSM does.
func restorable(store *raft.FileSnapshotStore, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decode panicked: %v", r)
		}
	}()
	_, rc, err := store.Open(id)
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return err
	}
	return controller.NewState().Restore(b)
}

// newRaft is raft.NewRaft with a panic of its start (a store checkStore
// passed but raft still cannot read) turned into an error naming the store:
// it runs on the caller's goroutine until raft's own goroutines start. Its
// errors are the store's (the config was validated before).
func newRaft(dir string, rc *raft.Config, fsm raft.FSM, logs raft.LogStore, stable raft.StableStore,
	snaps raft.SnapshotStore, trans raft.Transport) (r *raft.Raft, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, &StoreError{Path: dir, Err: fmt.Errorf("cannot be read: %v", p)}
		}
	}()
	defer func() {
		if c, ok := trans.(raft.WithClose); ok && err != nil {
			_ = c.Close() // raft closes it only once it runs
		}
	}()
	r, err = raft.NewRaft(rc, fsm, logs, stable, snaps, trans)
	if err != nil {
		return nil, &StoreError{Path: dir, Err: err}
	}
	return r, nil
}
