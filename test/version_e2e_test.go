package test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEveryBinaryPrintsItsVersion: -version on each binary of cmd/ prints
// one line naming the program, its module version, commit, commit and build
// times and the Go version, and exits 0; a binary built with the Makefile's
// -X flags prints those values.
func TestEveryBinaryPrintsItsVersion(t *testing.T) {
	for _, name := range []string{"namesrv", "broker", "mqadmin", "nsbench"} {
		out, err := exec.Command(filepath.Join(binDir, name), "-version").CombinedOutput()
		line := string(out)
		if err != nil || !strings.HasPrefix(line, name+" ") || !strings.Contains(line, runtime.Version()) ||
			!strings.Contains(line, "commit ") || !strings.Contains(line, "built ") || strings.Count(line, "\n") != 1 {
			t.Errorf("%s -version: %v\n%s", name, err, line)
		}
	}

	const bi = "github.com/gonamesrv/gonamesrv/internal/buildinfo"
	dir := t.TempDir()
	ldflags := "-X " + bi + ".moduleVersion=v9.8.7-test -X " + bi + ".commit=0123abcd -X " + bi + ".commitTime=2026-01-02T03:04:05Z -X " + bi + ".buildTime=2026-06-07T08:09:10Z"
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ldflags, "-o", dir+"/", "../cmd/mqadmin")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "mqadmin"), "-version").CombinedOutput()
	want := "mqadmin v9.8.7-test (commit 0123abcd, committed 2026-01-02T03:04:05Z, built 2026-06-07T08:09:10Z, " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")\n"
	if err != nil || string(out) != want {
		t.Errorf("stamped mqadmin -version: %v\ngot  %q\nwant %q", err, out, want)
	}
}
