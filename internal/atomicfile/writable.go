package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// CheckWritable tells, before the first write, whether Write could replace
// path: its folder is created if missing, a temporary file is created in it
// and removed (Write renames one over path, so the folder's permission is
// what counts, not the file's), and path itself must not be a directory.
// A server calls it at start so that a folder it cannot write stops the start
// instead of failing the first update an operator sends hours later.
func CheckWritable(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("%s is a directory, not a file", path)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	f, tmpPath, err := createTemp(path, 0o600)
	if err != nil {
		return fmt.Errorf("folder %s is not writable: %w", dir, err)
	}
	_ = f.Close()
	if err := os.Remove(tmpPath); err != nil {
		return fmt.Errorf("remove %s: %w", tmpPath, err)
	}
	return nil
}
