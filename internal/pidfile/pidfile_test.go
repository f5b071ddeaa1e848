package pidfile

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestFromArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		path string
		rest []string
	}{
		{[]string{"-c", "a.conf"}, "", []string{"-c", "a.conf"}},
		{[]string{"-pidFile", "/run/ns.pid", "-c", "a.conf"}, "/run/ns.pid", []string{"-c", "a.conf"}},
		{[]string{"-c", "a.conf", "--pidFile=/run/ns.pid"}, "/run/ns.pid", []string{"-c", "a.conf"}},
		{[]string{"-pidFile", "one", "-pidFile", "two"}, "two", []string{}},
		{[]string{"-listenPort", "9876", "--", "-pidFile", "x"}, "", []string{"-listenPort", "9876", "--", "-pidFile", "x"}},
	} {
		path, rest, err := FromArgs(c.args)
		if err != nil || path != c.path || !slices.Equal(rest, c.rest) {
			t.Errorf("FromArgs(%q) = %q, %q, %v; want %q, %q", c.args, path, rest, err, c.path, c.rest)
		}
	}
	for _, bad := range [][]string{{"-pidFile"}, {"-pidFile="}} {
		if _, _, err := FromArgs(bad); err == nil {
			t.Errorf("FromArgs(%q): no error", bad)
		}
	}
}

func TestWriteAndRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "namesrv.pid")
	remove, err := Write(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil || string(raw) != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("pid file holds %q (%v), want our pid %d", raw, err, os.Getpid())
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("pid file still there after remove: %v", err)
	}
}

// TestRemoveLeavesAnotherProcesssFile: a second start with the same path
// replaced the file; the first process's exit must not delete it.
func TestRemoveLeavesAnotherProcesssFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "namesrv.pid")
	remove, err := Write(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if raw, err := os.ReadFile(path); err != nil || string(raw) != "1\n" {
		t.Fatalf("the other process's pid file: %q, %v", raw, err)
	}
}

func TestWriteRefusesAnUnwritablePlace(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(filepath.Join(blocker, "x.pid")); err == nil {
		t.Fatal("pid file under a regular file: no error")
	}
}

func TestEmptyPathWritesNothing(t *testing.T) {
	remove, err := Write("")
	if err != nil || remove() != nil {
		t.Fatal(err)
	}
}
