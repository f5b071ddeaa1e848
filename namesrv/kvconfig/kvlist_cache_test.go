package kvconfig

import (
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

func openTempStore(t *testing.T) *Store {
	t.Helper()
	logger, _ := logtest.NewNullLogger()
	s, err := Open(filepath.Join(t.TempDir(), "kvConfig.json"), logrus.NewEntry(logger))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sameBytes(a, b []byte) bool { return len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b) }

// TestKVTableJSONEncodedOncePerChange: asked twice, a namespace's body is the
// same bytes (encoded once); a change of another namespace keeps it; a
// change of its own gives the new content, encoded anew.
func TestKVTableJSONEncodedOncePerChange(t *testing.T) {
	s := openTempStore(t)
	for _, kv := range [][3]string{{"big", "k1", "v1"}, {"other", "k", "v"}} {
		if err := s.Put(kv[0], kv[1], kv[2]); err != nil {
			t.Fatal(err)
		}
	}
	first, _ := s.KVTableJSON("big")
	if cached, found, ok := s.CachedKVTableJSON("big"); !ok || !found || !sameBytes(cached, first) {
		t.Fatal("the body just encoded is not the cached one")
	}
	again, _ := s.KVTableJSON("big")
	if !sameBytes(first, again) {
		t.Fatal("an unchanged namespace was encoded again")
	}
	if err := s.Put("other", "k", "v2"); err != nil {
		t.Fatal(err)
	}
	if kept, _ := s.KVTableJSON("big"); !sameBytes(first, kept) {
		t.Fatal("a change of another namespace dropped this one's body")
	}
	if err := s.Put("big", "k2", "v2"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.CachedKVTableJSON("big"); ok {
		t.Fatal("a changed namespace's old body is still offered as current")
	}
	changed, _ := s.KVTableJSON("big")
	if want := `{"table":{"k1":"v1","k2":"v2"}}`; string(changed) != want {
		t.Fatalf("body after the change %s, want %s", changed, want)
	}
	if err := s.Delete("big", "k1"); err != nil {
		t.Fatal(err)
	}
	if after, _ := s.KVTableJSON("big"); string(after) != `{"table":{"k2":"v2"}}` {
		t.Fatalf("body after the delete %s", after)
	}
	if _, found, ok := s.CachedKVTableJSON("missing"); found || !ok {
		t.Fatal("a missing namespace is not answered at once as missing")
	}
}
