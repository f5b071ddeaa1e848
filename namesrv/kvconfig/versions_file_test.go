package kvconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// A key keeps its version only when the versions file recorded it with the
// same value; any other (written by Java, by hand, or by a write cut between
// the two files) gets the lowest version; a tombstone stays; an entry of a
// key the table no longer holds, without tombstone, goes.
func TestReconcile(t *testing.T) {
	v := Version{Millis: 10, Writer: "w"}
	table := configTable{"ns": {"same": "1", "edited": "new", "java": "j", "revived": "r"}}
	vf := versionsFile{Writer: "w", Entries: map[string]map[string]Meta{"ns": {
		"same":    {Version: v, SHA256: valueHash("1")},
		"edited":  {Version: v, SHA256: valueHash("old")},
		"revived": {Version: v, Deleted: true},
		"gone":    {Version: v, Deleted: true},
		"cut":     {Version: v, SHA256: valueHash("x")},
	}}}
	meta, assigned := reconcile(table, vf)
	want := metaTable{"ns": {
		"same":    {Version: v, SHA256: valueHash("1")},
		"edited":  {SHA256: valueHash("new")},
		"java":    {SHA256: valueHash("j")},
		"revived": {SHA256: valueHash("r")},
		"gone":    {Version: v, Deleted: true},
	}}
	if !reflect.DeepEqual(meta, want) || assigned != 3 {
		t.Fatalf("reconcile = %v (%d assigned), want %v (3)", meta, assigned, want)
	}
}

// A Java kvConfig.json without a versions file loads with every key of
// unknown age: any versioned write of it on a peer wins, and the clock of a
// store with a versions file starts past its newest version.
func TestJavaFileWithoutVersionsLosesToAPeersWrite(t *testing.T) {
	dir := t.TempDir()
	java, err := os.ReadFile(filepath.Join("testdata", "java-kvConfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kvConfig.json")
	if err := os.WriteFile(path, java, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	m, ok := s.MetaOf("ORDER_TOPIC_CONFIG", "TopicOrder")
	if !ok || m.Version != (Version{}) {
		t.Fatalf("a Java file's key: %+v %v, want the lowest version", m, ok)
	}
	peer := Entry{Namespace: "ORDER_TOPIC_CONFIG", Key: "TopicOrder", Meta: Meta{Version: Version{Millis: 1, Writer: "peer"}}, Value: "broker-a:8"}
	if n, err := s.Merge([]Entry{peer}); err != nil || n != 1 {
		t.Fatalf("merge of a peer's write: %d %v", n, err)
	}
	if v, _ := s.Get("ORDER_TOPIC_CONFIG", "TopicOrder"); v != "broker-a:8" {
		t.Fatalf("after the peer's write: %q", v)
	}
	if err := s.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	reopened, err := Open(path, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Writer() != s.Writer() {
		t.Fatalf("writer id %q after reopen, was %q", reopened.Writer(), s.Writer())
	}
	if err := reopened.Put("ns", "k2", "v"); err != nil {
		t.Fatal(err)
	}
	m1, _ := reopened.MetaOf("ns", "k")
	m2, _ := reopened.MetaOf("ns", "k2")
	if m2.Version.Compare(m1.Version) <= 0 {
		t.Fatalf("a write after the restart %+v is not newer than one before %+v", m2, m1)
	}
}

// A versions file that does not parse is ignored, not fatal: the keys load
// as of unknown age.
func TestCorruptVersionsFileIgnored(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kvConfig.json")
	if err := os.WriteFile(path, []byte(`{"configTable":{"ns":{"k":"v"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+VersionsSuffix, []byte(`{"entries":`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.MetaOf("ns", "k"); !ok || m.Version != (Version{}) {
		t.Fatalf("key of a store with a corrupt versions file: %+v %v", m, ok)
	}
}
