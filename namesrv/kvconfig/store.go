package kvconfig

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

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
	path string
	log  *logrus.Entry

	// writeMu serialises writers so each builds on the latest table and the
	// file always ends with the content of the last acknowledged write.
	writeMu sync.Mutex
	table   atomic.Pointer[configTable]
}

// Open loads the store from path (the Java kvConfigPath file). A missing file
// gives an empty store; a file that is not valid JSON is an error wrapping
// ErrCorruptFile, so the daemon refuses to start instead of overwriting it.
func Open(path string, log *logrus.Entry) (*Store, error) {
	table, err := readConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("open KV config store: %w", err)
	}
	s := &Store{path: path, log: log}
	s.table.Store(&table)
	log.WithFields(logrus.Fields{"path": path, "namespaces": len(table)}).Info("KV config store loaded")
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

// KVTableJSON returns the namespace as a KVTable body, {"table":{...}},
// compact with keys sorted, and whether the namespace exists.
func (s *Store) KVTableJSON(namespace string) ([]byte, bool) {
	kv, ok := (*s.table.Load())[namespace]
	if !ok {
		return nil, false
	}
	return encodeKVTable(kv), true
}

// Put stores value under (namespace, key), creating the namespace if needed.
// It returns once the whole store is on disk; on error nothing changes.
func (s *Store) Put(namespace, key, value string) error {
	return s.update(func(table configTable) {
		kv := maps.Clone(table[namespace])
		if kv == nil {
			kv = make(map[string]string, 1)
		}
		kv[key] = value
		table[namespace] = kv
	}, "put "+namespace+"/"+key)
}

// Delete removes key from namespace and persists the store, even when there
// was nothing to remove. An emptied namespace is kept (quirk Q21); a missing
// namespace is not created.
func (s *Store) Delete(namespace, key string) error {
	return s.update(func(table configTable) {
		kv, ok := table[namespace]
		if !ok {
			return
		}
		kv = maps.Clone(kv)
		delete(kv, key)
		table[namespace] = kv
	}, "delete "+namespace+"/"+key)
}

// update applies change to a copy of the table, writes the copy to the file
// and only then publishes it; op names the change in the error. The outer map is copied (namespaces are few);
// change must copy any namespace map it modifies.
func (s *Store) update(change func(configTable), op string) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	next := maps.Clone(*s.table.Load())
	change(next)
	if err := atomicfile.Write(s.path, encodeConfigFile(next), filePerm); err != nil {
		return fmt.Errorf("kv config %s: %w", op, err)
	}
	s.table.Store(&next)
	return nil
}
