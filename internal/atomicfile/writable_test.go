package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckWritable: a missing folder is created and left without a
// temporary file; a folder that cannot be created (under a regular file), a
// path that is a directory and, for a user other than root, a read-only
// folder are errors naming the path.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "kvConfig.json")
	if err := CheckWritable(path); err != nil {
		t.Fatalf("a missing folder: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Fatalf("the check left %v behind", entries)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	under := filepath.Join(blocker, "kvConfig.json")
	if err := CheckWritable(under); err == nil || !strings.Contains(err.Error(), blocker) {
		t.Fatalf("a folder under a file: %v, want an error naming %s", err, blocker)
	}
	if err := CheckWritable(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("a directory: %v", err)
	}
	if os.Geteuid() != 0 {
		readOnly := filepath.Join(dir, "ro")
		if err := os.Mkdir(readOnly, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := CheckWritable(filepath.Join(readOnly, "x")); err == nil || !strings.Contains(err.Error(), "not writable") {
			t.Fatalf("a read-only folder: %v", err)
		}
	}
}
