package container

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// ignoreRule is one .dockerignore line: a pattern, or an exception (!).
type ignoreRule struct {
	re     *regexp.Regexp
	except bool
}

// readIgnore parses a .dockerignore as docker and podman read it: patterns
// relative to the context's root (a leading / changes nothing), * and ?
// within a path element, ** across elements, ! for an exception; the last
// matching line decides.
func readIgnore(t *testing.T, file string) []ignoreRule {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("no .dockerignore: %v (COPY . . sends everything: bin/, .git, dist/)", err)
	}
	defer f.Close()
	var rules []ignoreRule
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{}
		if strings.HasPrefix(line, "!") {
			r.except, line = true, strings.TrimPrefix(line, "!")
		}
		line = strings.TrimPrefix(path.Clean("/"+line), "/")
		var expr strings.Builder
		for i := 0; i < len(line); i++ {
			switch {
			case strings.HasPrefix(line[i:], "**/"):
				expr.WriteString("(.*/)?")
				i += 2
			case strings.HasPrefix(line[i:], "**"):
				expr.WriteString(".*")
				i++
			case line[i] == '*':
				expr.WriteString("[^/]*")
			case line[i] == '?':
				expr.WriteString("[^/]")
			default:
				expr.WriteString(regexp.QuoteMeta(line[i : i+1]))
			}
		}
		r.re = regexp.MustCompile("^" + expr.String() + "$")
		rules = append(rules, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rules
}

// ignored: p is left out of the build context. As in docker's pattern
// matcher, a line applies when it matches p or a folder above p, and the
// last line that applies decides.
func ignored(rules []ignoreRule, p string) bool {
	out := false
	for _, r := range rules {
		for prefix := p; ; {
			if r.re.MatchString(prefix) {
				out = !r.except
				break
			}
			i := strings.LastIndex(prefix, "/")
			if i < 0 {
				break
			}
			prefix = prefix[:i]
		}
	}
	return out
}

// gitignoredSamples is a path each .gitignore line ignores (build output,
// local data, test binaries), which the build context must not carry either.
func gitignoredSamples(t *testing.T, root string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	var samples []string
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!"):
		case strings.HasPrefix(line, "*"):
			samples = append(samples, "x"+line[1:], "cmd/namesrv/x"+line[1:])
		default:
			samples = append(samples, strings.Trim(line, "/")+"/x")
		}
	}
	return samples
}

// TestDockerignore: the build context (the repository's root) leaves out
// .git, the build output, release archives and everything .gitignore lists,
// and keeps what the build stage needs: go.mod, go.sum and the sources.
func TestDockerignore(t *testing.T) {
	root := repo.Root(t)
	rules := readIgnore(t, filepath.Join(root, ".dockerignore"))
	out := append([]string{".git/HEAD", ".git/objects/ab/cdef", "bin/namesrv", "dist/SHA256SUMS"}, gitignoredSamples(t, root)...)
	for _, p := range out {
		if !ignored(rules, p) {
			t.Errorf(".dockerignore sends %s into the build context", p)
		}
	}
	keep := []string{"go.mod", "go.sum", "cmd/namesrv/main.go", "cmd/controller/main.go", "internal/buildinfo/buildinfo.go", "namesrv/config/config.go"}
	for _, stage := range stages(t) {
		for _, c := range find(stage, "COPY") {
			if strings.HasPrefix(c, "--from=") {
				continue
			}
			fields := strings.Fields(c)
			for _, src := range fields[:len(fields)-1] {
				if src != "." {
					keep = append(keep, src)
				}
			}
		}
	}
	for _, p := range keep {
		if ignored(rules, p) {
			t.Errorf(".dockerignore leaves %s out of the build context: the image cannot build", p)
		}
	}
}

// TestIgnoreMatcher: the matcher the test above relies on reads the
// patterns as docker does.
func TestIgnoreMatcher(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".dockerignore")
	if err := os.WriteFile(file, []byte("# c\n/bin/\n**/*.test\ndocs\n!docs/keep.md\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := readIgnore(t, file)
	for p, want := range map[string]bool{
		"bin/namesrv": true, "cmd/bin/x": false, "a.test": true, "cmd/x/a.test": true,
		"docs/x.md": true, "docs/keep.md": false, "go.mod": false,
	} {
		if ignored(rules, p) != want {
			t.Errorf("ignored(%s) = %v, want %v", p, !want, want)
		}
	}
}
