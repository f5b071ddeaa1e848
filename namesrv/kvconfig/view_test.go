package kvconfig

import (
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// TestAllIsACopyOfEveryNamespace: All lists what was put, and changing the
// copy changes nothing in the store.
func TestAllIsACopyOfEveryNamespace(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "kv.json"), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("ns1", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("ns2", "a", "b"); err != nil {
		t.Fatal(err)
	}
	all := s.All()
	if len(all) != 2 || all["ns1"]["k"] != "v" || all["ns2"]["a"] != "b" {
		t.Fatalf("All() = %v", all)
	}
	all["ns1"]["k"] = "changed"
	if v, _ := s.Get("ns1", "k"); v != "v" {
		t.Fatalf("the store changed through the copy: %q", v)
	}
}
