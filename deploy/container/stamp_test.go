package container

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// linkerStamp is the Makefile's LDFLAGS for internal/buildinfo: each
// variable -X sets (moduleVersion, commit, ...) and the make variable it
// takes its value from (VERSION, COMMIT, ...), and the package's path.
func linkerStamp(t *testing.T) (pkg string, vars map[string]string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repo.Root(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^BUILDINFO\s*=\s*(\S+)`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("no BUILDINFO in the Makefile")
	}
	pkg, vars = string(m[1]), map[string]string{}
	for _, x := range regexp.MustCompile(`-X \$\(BUILDINFO\)\.(\w+)=\$\((\w+)\)`).FindAllSubmatch(raw, -1) {
		vars[string(x[1])] = string(x[2])
	}
	if len(vars) == 0 {
		t.Fatal("the Makefile's LDFLAGS set nothing of $(BUILDINFO)")
	}
	// Each is a variable of internal/buildinfo: -X on a name that does not
	// exist is silently ignored by the linker.
	src, err := os.ReadFile(filepath.Join(repo.Root(t), "internal", "buildinfo", "buildinfo.go"))
	if err != nil {
		t.Fatal(err)
	}
	for v := range vars {
		if !regexp.MustCompile(`(?m)^\s+` + v + `\s+string$`).Match(src) {
			t.Errorf("the Makefile sets %s.%s, which internal/buildinfo does not declare", pkg, v)
		}
	}
	return pkg, vars
}

// TestImageIsStamped: the build stage declares a build argument for each
// value `make build` links into internal/buildinfo and links it in the same
// way (-X PKG.var=${ARG}), after declaring it; the image's labels carry the
// version and commit. The image was built with -ldflags='-s -w' only, so
// every container said "unknown" on -version.
func TestImageIsStamped(t *testing.T) {
	pkg, vars := linkerStamp(t)
	all := stages(t)
	build, final := all[0], all[len(all)-1]
	var goBuild string
	declared := map[string]bool{}
	for _, in := range build {
		if in.op == "ARG" {
			name, _, _ := strings.Cut(in.args, "=")
			declared[name] = true
		}
		if in.op == "RUN" && strings.Contains(in.args, "go build") && strings.Contains(in.args, "./cmd/namesrv") {
			goBuild = in.args
			for v, arg := range vars {
				if !declared[arg] {
					t.Errorf("go build uses %s before (or without) ARG %s in the build stage", v, arg)
				}
				x := "-X " + pkg + "." + v + "=${" + arg + "}"
				if !strings.Contains(in.args, x) {
					t.Errorf("the go build lacks %s:\n%s", x, in.args)
				}
			}
		}
	}
	if goBuild == "" {
		t.Fatal("no go build of ./cmd/namesrv in the build stage")
	}
	labels := strings.Join(find(final, "LABEL"), " ")
	for label, arg := range map[string]string{"org.opencontainers.image.version": "VERSION", "org.opencontainers.image.revision": "COMMIT"} {
		if !strings.Contains(labels, label+`="${`+arg+`}"`) || !slices.ContainsFunc(find(final, "ARG"), func(a string) bool { return strings.HasPrefix(a, arg) }) {
			t.Errorf("the image has no label %s from ARG %s: %s", label, arg, labels)
		}
	}
}

// TestMakeImagePassesTheStamp: make image (read with make -n: no engine is
// needed) builds deploy/container/Containerfile from the repository's root
// and passes every stamp value as the build argument of that name, tagging
// the image with the version.
func TestMakeImagePassesTheStamp(t *testing.T) {
	makeTool, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make not installed: make image not checked")
	}
	_, vars := linkerStamp(t)
	args := []string{"-n", "image", "ENGINE=docker", "IMAGE=example/gonamesrv"}
	want := map[string]string{}
	for _, arg := range vars {
		want[arg] = "stamp-" + strings.ToLower(arg)
		args = append(args, arg+"="+want[arg])
	}
	cmd := exec.Command(makeTool, append([]string{"--no-print-directory"}, args...)...)
	cmd.Dir = repo.Root(t)
	// Run under make deploy-check, the outer make's flags would reach this
	// one (MAKEFLAGS): -n must be the only one.
	for _, kv := range os.Environ() {
		if key, _, _ := strings.Cut(kv, "="); key != "MAKEFLAGS" && key != "MFLAGS" && key != "MAKELEVEL" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n image: %v\n%s", err, out)
	}
	line := strings.Join(strings.Fields(strings.ReplaceAll(string(out), "\\\n", " ")), " ")
	for _, w := range []string{"docker build ", "-f deploy/container/Containerfile", "-t example/gonamesrv:" + want["VERSION"]} {
		if !strings.Contains(line, w) {
			t.Errorf("make image runs no %q: %s", w, line)
		}
	}
	for arg, value := range want {
		if !strings.Contains(line, "--build-arg "+arg+"="+value+" ") {
			t.Errorf("make image does not pass --build-arg %s=%s: %s", arg, value, line)
		}
	}
	if !strings.HasSuffix(line, " .") {
		t.Errorf("make image does not build from the repository's root: %s", line)
	}
}
