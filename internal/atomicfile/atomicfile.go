// Package atomicfile replaces a file's content so that a reader, or the next
// start after a crash, sees either the old content or the new one, never a
// mix or a truncated file. The NameServer's KV store and its config file both
// use it: the Java server truncates and rewrites in place, which can leave a
// half-written file that then refuses to load.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// TempSuffix is appended to the target path to name the file the new content is
// written to before it is renamed over the target. It lives in the same
// directory so the rename never crosses a file system.
const TempSuffix = ".tmp"

// dirPerm is the mode of parent directories created on demand (the Java server
// creates them too).
const dirPerm = 0o755

// Write replaces path's content with data: it creates missing parent
// directories, writes path+TempSuffix, fsyncs it, renames it over path and
// fsyncs the directory so the rename itself survives a power loss.
// When Write returns an error the old content of path is untouched.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	tmpPath := path + TempSuffix
	if err := writeSynced(tmpPath, data, perm); err != nil {
		_ = os.Remove(tmpPath)
		return err
	}
	if err := os.Rename(tmpPath, path); err != nil {
		_ = os.Remove(tmpPath)
		return fmt.Errorf("rename %s over %s: %w", tmpPath, path, err)
	}
	return syncDir(dir)
}

// writeSynced writes data to a fresh (truncated) file and flushes it to stable
// storage before closing it.
func writeSynced(path string, data []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("fsync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// syncDir flushes a directory's entries, which makes a completed rename durable.
func syncDir(dir string) error {
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
