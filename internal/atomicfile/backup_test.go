package atomicfile

import (
	"errors"
	"testing"
)

// stored is what a fake read finds at a path.
type stored struct {
	v     int
	found bool
	err   error
}

func TestReadWithBackupFallsBackAndNamesTheFilesError(t *testing.T) {
	bad := errors.New("corrupt")
	files := map[string]stored{"a": {1, true, nil}, "a.bak": {2, true, nil}}
	read := func(p string) (int, bool, error) { f := files[p]; return f.v, f.found, f.err }
	for _, c := range []struct {
		name  string
		setup func()
		v     int
		found bool
		err   error
	}{
		{"good file", func() {}, 1, true, nil},
		{"corrupt file, good backup", func() { files["a"] = stored{err: bad} }, 2, true, nil},
		{"corrupt file, no backup", func() { delete(files, "a.bak") }, 0, false, bad},
		{"neither", func() { delete(files, "a") }, 0, false, nil},
	} {
		c.setup()
		v, found, err := ReadWithBackup("a", ".bak", read)
		if v != c.v || found != c.found || !errors.Is(err, c.err) {
			t.Errorf("%s: %d %v %v, want %d %v %v", c.name, v, found, err, c.v, c.found, c.err)
		}
	}
}
