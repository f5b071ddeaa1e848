package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	if left, _ := filepath.Glob(path + TempSuffix + "*"); len(left) != 0 {
		t.Fatalf("temp files left behind: %v", left)
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
	// A name of 245 bytes leaves no room for the temporary file's suffix
	// (NAME_MAX is 255), so the write fails before the rename, even for root.
	path := filepath.Join(t.TempDir(), strings.Repeat("n", 245))
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(path, []byte("new"), 0o644)
	if err == nil || errors.Is(err, ErrNotDurable) {
		t.Fatalf("Write = %v, want a failure before the rename", err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "old" {
		t.Fatalf("file holds %q after a failed write, want the old content", got)
	}
}

// TestWriteNeverFollowsAPlantedSymlink: the temporary file used to be the
// fixed path+".tmp", opened without O_EXCL or O_NOFOLLOW, so anyone able to
// write the folder could plant a symlink there and have the server overwrite
// the file it points to (and then rename the symlink over the store).
func TestWriteNeverFollowsAPlantedSymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kvConfig.json")
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, planted := range []string{path + ".tmp", path + TempSuffix, path + TempSuffix + "0000000000000000"} {
		if err := os.Symlink(victim, planted); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(path, []byte("new content"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious" {
		t.Fatalf("the symlink's target was written: %q", got)
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() {
		t.Fatalf("the store is not a regular file after the write: %v %v", info, err)
	}
}

// TestOpenNewRefusesWhatExists: the temporary file is created, never reused,
// whether a file or a symlink (even a dangling one) holds its name.
func TestOpenNewRefusesWhatExists(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{file, dangling} {
		if f, err := openNew(name, 0o644); !errors.Is(err, fs.ErrExist) {
			if f != nil {
				f.Close()
			}
			t.Errorf("openNew(%s) = %v, want fs.ErrExist", filepath.Base(name), err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !os.IsNotExist(err) {
		t.Fatal("the dangling symlink's target was created")
	}
}

// TestWriteDirSyncFailureSaysTheContentIsInPlace: after the rename the new
// content is what every reader sees; an error of the directory fsync must
// say so (ErrNotDurable) rather than pass for a refused write.
func TestWriteDirSyncFailureSaysTheContentIsInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	if err := Write(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := syncDir
	t.Cleanup(func() { syncDir = saved })
	syncDir = func(string) error { return syscall.EIO }
	err := Write(path, []byte("new"), 0o644)
	if !errors.Is(err, ErrNotDurable) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("Write = %v, want ErrNotDurable wrapping the fsync error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Fatalf("file holds %q", got)
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
