package kvconfig

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
)

// OrderTopicConfigNamespace is the namespace whose keys are topic names and
// whose values are `brokerName:queueCount;...` lists of ordered topics (Java
// NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG).
const OrderTopicConfigNamespace = "ORDER_TOPIC_CONFIG"

// configTable is namespace → key → value. A published table is never
// modified: writers build a new one and swap it in.
type configTable map[string]map[string]string

// Store is the KV config store bound to its file. It is safe for concurrent
// use; reads never block.
type Store struct {
	path   string
	log    *logrus.Entry
	limits Limits
	// write persists the file: atomicfile.Write, which the tests replace to
	// make a directory fsync fail.
	write func(path string, data []byte, perm os.FileMode) error

	// writeMu serialises writers so each builds on the latest table and the
	// file always ends with the content of the last acknowledged write.
	writeMu sync.Mutex
	table   atomic.Pointer[configTable]
	// fileBytes and keys describe the published table (under writeMu).
	fileBytes, keys int
	// meta is every key's version, tombstones included, and clock makes
	// the versions of local writes (both under writeMu; versions_file.go).
	meta  metaTable
	clock hlc
	// now is the wall clock the versions are read from (tests set it).
	now func() time.Time
	// encoded holds each namespace's KVTable body (kvlist_cache.go).
	encoded sync.Map
}

// Open loads the store from path (the Java kvConfigPath file) with
// DefaultLimits. A missing file gives an empty store; a file that is not
// valid JSON is an error wrapping ErrCorruptFile, so the daemon refuses to
// start instead of overwriting it.
func Open(path string, log *logrus.Entry) (*Store, error) {
	return OpenLimited(path, DefaultLimits, log)
}

// OpenLimited is Open with other limits. A file already over them is loaded
// (it is the operator's data) and logged; only writes that grow it are refused.
func OpenLimited(path string, limits Limits, log *logrus.Entry) (*Store, error) {
	table, err := readConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("open KV config store: %w", err)
	}
	s := &Store{path: path, log: log, limits: limits, write: atomicfile.Write,
		fileBytes: len(encodeConfigFile(table)), keys: countKeys(table), now: time.Now}
	s.table.Store(&table)
	assigned := s.loadVersions(table)
	fields := logrus.Fields{"path": path, "namespaces": len(table), "keys": s.keys, "fileBytes": s.fileBytes,
		"unversionedKeys": assigned}
	if s.keys > limits.MaxKeys || s.fileBytes > limits.MaxFileBytes {
		log.WithFields(fields).Warn("KV config store loaded over its limits: writes that grow it are refused")
	} else {
		log.WithFields(fields).Info("KV config store loaded")
	}
	return s, nil
}

// Path is the file the store persists to.
func (s *Store) Path() string { return s.path }

// Get returns the value of key in namespace and whether it exists.
func (s *Store) Get(namespace, key string) (string, bool) {
	value, ok := (*s.table.Load())[namespace][key]
	return value, ok
}

// Namespace returns a copy of one namespace's entries and whether the
// namespace exists (an emptied namespace still exists).
func (s *Store) Namespace(namespace string) (map[string]string, bool) {
	kv, ok := (*s.table.Load())[namespace]
	if !ok {
		return nil, false
	}
	return maps.Clone(kv), true
}

// Put stores value under (namespace, key), creating the namespace if needed.
// It returns once the whole store is on disk. An entry or a store over the
// limits is refused with an error wrapping ErrOverLimit; on any error but
// one wrapping atomicfile.ErrNotDurable nothing changes.
func (s *Store) Put(namespace, key, value string) error {
	if err := s.limits.checkEntry(namespace, key, value); err != nil {
		return fmt.Errorf("kv config put: %w", err)
	}
	return s.update(func(table configTable, meta metaTable) {
		m := Meta{Version: s.clock.next(s.now().UnixMilli()), SHA256: valueHash(value)}
		apply(table, meta, namespace, key, value, m)
	}, "put "+namespace+"/"+key)
}

// Delete removes key from namespace and persists the store, even when there
// was nothing to remove. An emptied namespace is kept (quirk Q21); a missing
// namespace is not created.
func (s *Store) Delete(namespace, key string) error {
	return s.update(func(table configTable, meta metaTable) {
		// The tombstone is kept even when the key is missing here: a peer
		// that has it deletes it too.
		apply(table, meta, namespace, key, "", Meta{Version: s.clock.next(s.now().UnixMilli()), Deleted: true})
	}, "delete "+namespace+"/"+key)
}

// apply sets one key's value (or removes it, for a tombstone) and its Meta
// in table and meta, copying the namespace maps it changes. A put creates
// its namespace; a delete never does, and leaves an emptied one (Q21).
func apply(table configTable, meta metaTable, namespace, key, value string, m Meta) {
	if kv, ok := table[namespace]; ok || !m.Deleted {
		kv = maps.Clone(kv)
		if kv == nil {
			kv = make(map[string]string, 1)
		}
		if m.Deleted {
			delete(kv, key)
		} else {
			kv[key] = value
		}
		table[namespace] = kv
	}
	entries := maps.Clone(meta[namespace])
	if entries == nil {
		entries = make(map[string]Meta, 1)
	}
	entries[key] = m
	meta[namespace] = entries
}

// update applies change to a copy of the table, checks the store limits,
// writes the copy to the file and only then publishes it; op names the
// change in the error. The outer map is copied (namespaces are few); change
// must copy any namespace map it modifies, in both tables.
//
// kvConfig.json is written first, then the versions file: a crash between
// the two leaves the new value with its old version's hash, so at the next
// load it gets the lowest version (reconcile) and an unacknowledged value
// never wins over a peer's. When the versions file's write fails, the value
// is in kvConfig.json and served, and the error wraps
// atomicfile.ErrNotDurable, as for a failed directory fsync.
//
// When the write fails after its rename (the directory fsync, an error
// wrapping atomicfile.ErrNotDurable), the file already holds the new table
// and a restart would load it, so the new table is published too and the
// error says so: the caller reports the durability as unknown, not the
// change as refused.
func (s *Store) update(change func(configTable, metaTable), op string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.updateLocked(change, op)
}

// updateLocked is update under writeMu.
func (s *Store) updateLocked(change func(configTable, metaTable), op string) error {
	next, nextMeta := maps.Clone(*s.table.Load()), maps.Clone(s.meta)
	change(next, nextMeta)
	if n := capTombstones(nextMeta, s.limits.MaxKeys); n > 0 {
		s.log.WithFields(logrus.Fields{"forgotten": n, "maxTombstones": s.limits.MaxKeys}).
			Warn("KV tombstones forgotten before their retention: too many deletes; a peer that still has those keys may hand them back")
	}
	content := encodeConfigFile(next)
	keys := countKeys(next)
	if err := s.limits.checkStore(keys, s.keys, len(content), s.fileBytes); err != nil {
		return fmt.Errorf("kv config %s: %w", op, err)
	}
	err := s.write(s.path, content, filePerm)
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return fmt.Errorf("kv config %s: %w", op, err)
	}
	s.table.Store(&next)
	s.meta = nextMeta
	s.keys, s.fileBytes = keys, len(content)
	if verr := s.writeVersions(); verr != nil && err == nil {
		err = verr
	}
	if err != nil {
		return fmt.Errorf("kv config %s: %w", op, err)
	}
	return nil
}
