package kvconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// openJava opens a store on a copy of a kvConfig.json as Java 5.3.3 writes
// it (testdata/java-kvConfig.json: the capture's ORDER_TOPIC_CONFIG put and
// capture-ns keys, in Java's HashMap order).
func openJava(t *testing.T) (*Store, string) {
	t.Helper()
	java, err := os.ReadFile(filepath.Join("testdata", "java-kvConfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	if err := os.WriteFile(path, java, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

// Writes and merges keep kvConfig.json in Java's format, readable by the
// Java decoder's rules, with no trace of the versions, which go to the file
// beside it.
func TestVersionsStayOutOfTheJavaFile(t *testing.T) {
	s, path := openJava(t)
	if err := s.Put("capture-ns", "k3", "v3"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("capture-ns", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Merge([]Entry{{Namespace: "peer-ns", Key: "p", Meta: Meta{Version: Version{Millis: 1, Writer: "peer"}}, Value: "pv"}}); err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:4"},"capture-ns":{"k2":"größe=√2 名前","k3":"v3"},"peer-ns":{"p":"pv"}}}`
	if string(content) != want {
		t.Fatalf("kvConfig.json = %s\nwant %s", content, want)
	}
	if _, err := decodeConfigFile(content); err != nil {
		t.Fatal(err)
	}
	versions, err := os.ReadFile(path + VersionsSuffix)
	if err != nil || !strings.Contains(string(versions), `"k1":{"millis":`) || !strings.Contains(string(versions), `"deleted":true`) {
		t.Fatalf("versions file %s (%v): want k1's tombstone", versions, err)
	}
}

// A delete leaves a tombstone even for a key this store lacks (a peer that
// has it deletes it too), and it survives a restart.
func TestDeleteOfAMissingKeyLeavesATombstone(t *testing.T) {
	s := openTemp(t)
	if err := s.Delete("ns", "never"); err != nil {
		t.Fatal(err)
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	m, ok := reopened.MetaOf("ns", "never")
	if !ok || !m.Deleted || m.Millis == 0 {
		t.Fatalf("tombstone after restart: %+v %v", m, ok)
	}
	if _, ok := reopened.Namespace("ns"); ok {
		t.Fatal("a delete created its namespace")
	}
}

func TestMergeTakesOnlyNewer(t *testing.T) {
	s := openTemp(t)
	if err := s.Put("ns", "k", "mine"); err != nil {
		t.Fatal(err)
	}
	mine, _ := s.MetaOf("ns", "k")
	older := Entry{Namespace: "ns", Key: "k", Meta: Meta{Version: Version{Millis: mine.Millis - 1, Writer: "peer"}}, Value: "older"}
	if n, err := s.Merge([]Entry{older}); err != nil || n != 0 {
		t.Fatalf("merge of an older write: %d %v", n, err)
	}
	if v, _ := s.Get("ns", "k"); v != "mine" {
		t.Fatalf("an older write won: %q", v)
	}
	// A peer's hash is not trusted: it is computed from the value.
	newer := Entry{Namespace: "ns", Key: "k", Meta: Meta{Version: Version{Millis: mine.Millis + 1, Writer: "peer"}, SHA256: "forged"}, Value: "newer"}
	if n, err := s.Merge([]Entry{newer}); err != nil || n != 1 {
		t.Fatalf("merge of a newer write: %d %v", n, err)
	}
	if m, _ := s.MetaOf("ns", "k"); m.SHA256 != valueHash("newer") {
		t.Fatalf("hash taken from the peer: %+v", m)
	}
	// A local write after seeing the peer's version wins over it.
	if err := s.Put("ns", "k", "after"); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.MetaOf("ns", "k"); m.Version.Compare(newer.Version) <= 0 {
		t.Fatalf("a write after the merge %+v is not newer than the merged %+v", m, newer.Version)
	}
	tomb := Entry{Namespace: "ns", Key: "k", Meta: Meta{Version: Version{Millis: time.Now().Add(time.Hour).UnixMilli(), Writer: "peer"}, Deleted: true}}
	if n, err := s.Merge([]Entry{tomb}); err != nil || n != 1 {
		t.Fatalf("merge of a newer delete: %d %v", n, err)
	}
	if _, ok := s.Get("ns", "k"); ok {
		t.Fatal("the key survived a newer delete")
	}
	if kv, ok := s.Namespace("ns"); !ok || len(kv) != 0 {
		t.Fatalf("emptied namespace: %v %v, want kept empty (Q21)", kv, ok)
	}
}

// A tombstone past TombstoneRetention is neither taken from a peer nor kept.
func TestTombstonesExpire(t *testing.T) {
	s := openTemp(t)
	old := time.Now().Add(-TombstoneRetention - time.Minute).UnixMilli()
	expired := Entry{Namespace: "ns", Key: "gone", Meta: Meta{Version: Version{Millis: old, Writer: "peer"}, Deleted: true}}
	if n, err := s.Merge([]Entry{expired}); err != nil || n != 0 {
		t.Fatalf("merge of an expired tombstone: %d %v", n, err)
	}
	if err := s.Delete("ns", "k"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PurgeTombstones(); err != nil || n != 0 {
		t.Fatalf("purge of a fresh tombstone: %d %v", n, err)
	}
	s.now = func() time.Time { return time.Now().Add(TombstoneRetention + time.Minute) }
	if n, err := s.PurgeTombstones(); err != nil || n != 1 {
		t.Fatalf("purge of an expired tombstone: %d %v", n, err)
	}
	if _, ok := s.MetaOf("ns", "k"); ok {
		t.Fatal("expired tombstone kept")
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := reopened.MetaOf("ns", "k"); ok {
		t.Fatal("expired tombstone back after restart")
	}
}

// A failed write of the versions file leaves the value applied and served
// (it is in kvConfig.json) and says its durability is unknown; at the next
// load that value, its version lost, is of unknown age.
func TestVersionsWriteFailureIsNotDurable(t *testing.T) {
	s := openTemp(t)
	if err := s.Put("ns", "k", "v1"); err != nil {
		t.Fatal(err)
	}
	write := s.write
	s.write = func(path string, data []byte, perm os.FileMode) error {
		if strings.HasSuffix(path, VersionsSuffix) {
			return errors.New("disk full")
		}
		return write(path, data, perm)
	}
	err := s.Put("ns", "k", "v2")
	if !errors.Is(err, atomicfile.ErrNotDurable) {
		t.Fatalf("put with the versions file failing: %v, want ErrNotDurable", err)
	}
	if v, _ := s.Get("ns", "k"); v != "v2" {
		t.Fatalf("served %q", v)
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := reopened.MetaOf("ns", "k"); m.Version != (Version{}) {
		t.Fatalf("a value whose version was not written loads as %+v, want the lowest version", m)
	}
}

// Two stores with the same entries have the same digest hash; any
// difference of value, version or tombstone changes it.
func TestDigestHash(t *testing.T) {
	a, b := openTemp(t), openTemp(t)
	if a.Digest().Hash != b.Digest().Hash {
		t.Fatal("empty stores differ")
	}
	if err := a.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	d := a.Digest()
	if len(d.Entries) != 1 || d.Entries[0].Value != "" || d.Hash == b.Digest().Hash {
		t.Fatalf("digest %+v", d)
	}
	if _, err := b.Merge(a.Entries([][2]string{{"ns", "k"}}, 1<<20)); err != nil {
		t.Fatal(err)
	}
	if a.Digest().Hash != b.Digest().Hash {
		t.Fatal("stores with the same entries differ")
	}
	if err := b.Delete("ns", "k"); err != nil {
		t.Fatal(err)
	}
	if a.Digest().Hash == b.Digest().Hash {
		t.Fatal("a tombstone does not change the hash")
	}
}

// Entries stops before maxBytes, but always answers one entry.
func TestEntriesBounded(t *testing.T) {
	s := openTemp(t)
	big := strings.Repeat("x", 10_000)
	for _, k := range []string{"a", "b", "c"} {
		if err := s.Put("ns", k, big); err != nil {
			t.Fatal(err)
		}
	}
	keys := [][2]string{{"ns", "a"}, {"ns", "missing"}, {"ns", "b"}, {"ns", "c"}}
	if got := s.Entries(keys, 100); len(got) != 1 || got[0].Key != "a" || got[0].Value != big {
		t.Fatalf("entries under a tiny bound: %d", len(got))
	}
	if got := s.Entries(keys, 25_000); len(got) != 2 || got[1].Key != "b" {
		t.Fatalf("entries under 25,000 bytes: %d", len(got))
	}
}
