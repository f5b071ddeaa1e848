// Package atomicfile replaces a file's content so that a reader, or the next
// start after a crash, sees either the old content or the new one, never a
// mix or a truncated file. The NameServer's KV store and its config file both
// use it: the Java server truncates and rewrites in place, which can leave a
// half-written file that then refuses to load.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// TempSuffix starts the name of the file the new content is written to
// before it is renamed over the target: path + TempSuffix + 16 random hex
// digits. It lives in the same directory so the rename never crosses a file
// system; the random part means no one can guess it and plant something there
// beforehand.
const TempSuffix = ".tmp-"

// dirPerm is the mode of parent directories created on demand (the Java server
// creates them too).
const dirPerm = 0o755

// tempAttempts bounds the tries for a temporary name that does not exist yet;
// with 64 random bits, a second try already means something is wrong.
const tempAttempts = 4

// ErrNotDurable marks an error of Write after the rename: the new content is
// in place (every reader, and a restart, sees it) and the file's data was
// flushed, but the directory entry was not, so the rename may not survive a
// power loss. A caller must treat the new content as current, not as refused.
var ErrNotDurable = errors.New("the new content is in place, but its durability across a power loss is unknown")

// Write replaces path's content with data: it creates missing parent
// directories, writes a fresh temporary file next to path (created with
// O_EXCL|O_NOFOLLOW under a random name, so a planted file or symlink is
// never written through), fsyncs it, renames it over path and fsyncs the
// directory so the rename itself survives a power loss. An error wrapping
// ErrNotDurable means the content was replaced; any other error means the old
// content of path is untouched.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	f, tmpPath, err := createTemp(path, perm)
	if err != nil {
		return err
	}
	if err := writeSynced(f, data); err != nil {
		_ = os.Remove(tmpPath)
		return err
	}
	if err := os.Rename(tmpPath, path); err != nil {
		_ = os.Remove(tmpPath)
		return fmt.Errorf("rename %s over %s: %w", tmpPath, path, err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("%w: %w", ErrNotDurable, err)
	}
	return nil
}

// createTemp creates path + TempSuffix + random hex, exclusively and without
// following a symlink at that name.
func createTemp(path string, perm os.FileMode) (*os.File, string, error) {
	var err error
	for range tempAttempts {
		var random [8]byte
		_, _ = rand.Read(random[:]) // never fails (crypto/rand)
		tmpPath := path + TempSuffix + hex.EncodeToString(random[:])
		var f *os.File
		f, err = openNew(tmpPath, perm)
		if err == nil {
			return f, tmpPath, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return nil, "", fmt.Errorf("create temporary file for %s: %w", path, err)
}

// openNew creates a file that must not exist yet: an existing file, or a
// symlink pointing anywhere, fails with fs.ErrExist instead of being opened.
func openNew(path string, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, perm)
}

// writeSynced writes data to the new file and flushes it to stable storage
// before closing it. The file's errors already name its path.
func writeSynced(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("fsync: %w", err)
	}
	return f.Close()
}

// syncDir flushes a directory's entries, which makes a completed rename
// durable. A variable so that the tests can make it fail: no real file system
// here fails a directory fsync on demand.
var syncDir = func(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync directory %s: %w", dir, err)
	}
	return nil
}
