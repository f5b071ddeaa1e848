package kvconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// smallLimits make the store limits reachable in a few writes.
var smallLimits = Limits{MaxKeyBytes: 8, MaxValueBytes: 16, MaxKeys: 3, MaxFileBytes: 200}

func openLimited(t *testing.T, limits Limits) *Store {
	t.Helper()
	s, err := OpenLimited(filepath.Join(t.TempDir(), "kvConfig.json"), limits, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPutRefusesEntriesOverTheLimits: before the limits an 8 MiB value was
// stored (and logged) like any other.
func TestPutRefusesEntriesOverTheLimits(t *testing.T) {
	s := openLimited(t, smallLimits)
	cases := []struct{ name, ns, key, value, reason string }{
		{"long namespace", strings.Repeat("n", 9), "k", "v", "namespace of 9 bytes, at most 8"},
		{"long key", "ns", strings.Repeat("k", 9), "v", "key of 9 bytes, at most 8"},
		{"long value", "ns", "k", strings.Repeat("v", 17), "value of 17 bytes, at most 16"},
	}
	for _, tc := range cases {
		err := s.Put(tc.ns, tc.key, tc.value)
		if !errors.Is(err, ErrOverLimit) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: Put = %v, want ErrOverLimit saying %q", tc.name, err, tc.reason)
		}
	}
	if _, err := os.Stat(s.Path()); !os.IsNotExist(err) {
		t.Fatal("a refused put wrote the file")
	}
	if err := s.Put(strings.Repeat("n", 8), strings.Repeat("k", 8), strings.Repeat("v", 16)); err != nil {
		t.Fatalf("entries at the limits refused: %v", err)
	}
}

func TestPutRefusesTooManyKeysButReplacesAndDeletes(t *testing.T) {
	s := openLimited(t, smallLimits)
	for i := range 3 {
		if err := s.Put("ns", fmt.Sprint("k", i), "v"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put("other", "k", "v"); !errors.Is(err, ErrOverLimit) || !strings.Contains(err.Error(), "4 keys, at most 3") {
		t.Fatalf("fourth key: %v", err)
	}
	if _, ok := s.Namespace("other"); ok {
		t.Fatal("the refused put created its namespace")
	}
	if err := s.Put("ns", "k0", "new"); err != nil {
		t.Fatalf("replacing a key at the key limit: %v", err)
	}
	if err := s.Delete("ns", "k1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Put("other", "k", "v"); err != nil {
		t.Fatalf("a key freed by a delete is not usable: %v", err)
	}
}

func TestPutRefusesATooLargeFile(t *testing.T) {
	limits := smallLimits
	limits.MaxKeys = 100
	s := openLimited(t, limits)
	var err error
	for i := 0; err == nil && i < 50; i++ {
		err = s.Put("ns", fmt.Sprint("key", i), strings.Repeat("v", 16))
	}
	if !errors.Is(err, ErrOverLimit) || !strings.Contains(err.Error(), "at most 200") {
		t.Fatalf("puts past 200 bytes of file: %v", err)
	}
	if info, statErr := os.Stat(s.Path()); statErr != nil || info.Size() > 200 {
		t.Fatalf("file grew past its limit: %v %v", info.Size(), statErr)
	}
}

// TestOpenOverTheLimitsLoadsAndShrinks: a hand-edited file past the limits
// still loads; writes that do not grow it pass.
func TestOpenOverTheLimitsLoadsAndShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	content := `{"configTable":{"ns":{"a":"1","b":"2","c":"3","d":"4"}}}`
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenLimited(path, smallLimits, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Get("ns", "d"); !ok || v != "4" {
		t.Fatal("the file over the limits was not loaded")
	}
	if err := s.Put("ns", "e", "5"); !errors.Is(err, ErrOverLimit) {
		t.Fatalf("a fifth key: %v", err)
	}
	if err := s.Put("ns", "a", "x"); err != nil {
		t.Fatalf("replacing a key over the limits: %v", err)
	}
	if err := s.Delete("ns", "b"); err != nil {
		t.Fatalf("deleting over the limits: %v", err)
	}
}

// TestDirSyncFailureServesTheValueAndSaysSo: the file holds the new table
// once renamed, so the store serves it and the error says the durability is
// unknown. Before, the store kept serving the old value while the file (and
// the next start) had the new one, and the client was told the write failed.
func TestDirSyncFailureServesTheValueAndSaysSo(t *testing.T) {
	s := openTemp(t)
	s.write = func(path string, data []byte, perm os.FileMode) error {
		if err := atomicfile.Write(path, data, perm); err != nil {
			return err
		}
		return fmt.Errorf("%w: fsync directory: %w", atomicfile.ErrNotDurable, syscall.EIO)
	}
	err := s.Put("ns", "k", "v")
	if !errors.Is(err, atomicfile.ErrNotDurable) {
		t.Fatalf("Put = %v, want ErrNotDurable", err)
	}
	if v, ok := s.Get("ns", "k"); !ok || v != "v" {
		t.Fatal("the value in the file is not served")
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := reopened.Get("ns", "k"); v != "v" {
		t.Fatal("the file does not hold the value")
	}
}
