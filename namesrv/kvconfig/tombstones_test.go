package kvconfig

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// Deletes of keys that never existed leave at most MaxKeys tombstones: the
// oldest go first, the key limit is untouched, and the newest stay.
func TestTombstonesAreBounded(t *testing.T) {
	limits := DefaultLimits
	limits.MaxKeys = 3
	s, err := OpenLimited(filepath.Join(t.TempDir(), "kvConfig.json"), limits, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if err := s.Delete("ns", "missing-"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 6 {
		_, kept := s.MetaOf("ns", "missing-"+strconv.Itoa(i))
		if kept != (i >= 3) {
			t.Fatalf("tombstone %d kept %v; want only the newest three", i, kept)
		}
	}
	if err := s.Put("ns", "k", "v"); err != nil {
		t.Fatalf("a put after the deletes: %v", err)
	}
	reopened, err := OpenLimited(s.Path(), limits, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := reopened.MetaOf("ns", "missing-0"); kept {
		t.Fatal("a forgotten tombstone is back after a restart")
	}
}
