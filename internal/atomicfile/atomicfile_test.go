package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteCreatesParentsAndReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "store.json")
	for _, content := range []string{"first", "second, longer than the first", "3"} {
		if err := Write(path, []byte(content), 0o644); err != nil {
			t.Fatalf("Write(%q): %v", content, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Fatalf("file holds %q, want %q", got, content)
		}
	}
	if _, err := os.Stat(path + TempSuffix); !os.IsNotExist(err) {
		t.Fatalf("temp file left behind: %v", err)
	}
	info, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != dirPerm {
		t.Fatalf("parent directory mode %v, want %v", info.Mode().Perm(), os.FileMode(dirPerm))
	}
}

func TestWriteFailureKeepsOldContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	if err := Write(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory where the temp file must go makes the write fail, even for root.
	if err := os.Mkdir(path+TempSuffix, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("new"), 0o644); err == nil {
		t.Fatal("Write succeeded although the temp path is a directory")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "old" {
		t.Fatalf("file holds %q after a failed write, want the old content", got)
	}
}

func TestWriteParentIsAFile(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(parent, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(parent, "store.json"), []byte("x"), 0o644); err == nil {
		t.Fatal("Write succeeded below a regular file")
	}
}
