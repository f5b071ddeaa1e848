package test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// The markers, on the line before a ```sh fence, of the blocks the docs test
// runs (docs/operations.md, "Commands that run in a test"): against a plain
// NameServer, or against one with ACL and TLS on (the secure profile).
const (
	runnableMarker       = "<!-- runnable -->"
	runnableSecureMarker = "<!-- runnable secure -->"
)

// docBlock is one runnable block: where it is and what it says.
type docBlock struct {
	file   string // relative to the repository's root
	line   int    // of the fence, 1-based
	script string
	secure bool // for the NameServer with ACL and TLS
}

// runnableBlocks are the marked blocks of README.md and docs/*.md, in file
// order. A marker not followed by a ```sh fence, or a fence never closed,
// fails the test: a typo must not turn a block silently off.
func runnableBlocks(t *testing.T, root string) []docBlock {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	var blocks []docBlock
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		lines := strings.Split(string(raw), "\n")
		for i := 0; i < len(lines); i++ {
			line := strings.TrimSpace(lines[i])
			if line != runnableMarker && line != runnableSecureMarker {
				if nearMarker.MatchString(line) {
					t.Fatalf("%s:%d: %q is neither %q nor %q", rel, i+1, line, runnableMarker, runnableSecureMarker)
				}
				continue
			}
			if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```sh" {
				t.Fatalf("%s:%d: %s is not followed by a ```sh fence", rel, i+1, line)
			}
			end := i + 2
			for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
				end++
			}
			if end >= len(lines) {
				t.Fatalf("%s:%d: the runnable block is never closed", rel, i+2)
			}
			blocks = append(blocks, docBlock{file: rel, line: i + 2, script: strings.Join(lines[i+2:end], "\n"),
				secure: line == runnableSecureMarker})
			i = end
		}
	}
	return blocks
}

// nearMarker is a marker spelt otherwise, which would silently leave its
// block out.
var nearMarker = regexp.MustCompile(`(?i)^<!--\s*runnable\b.*-->$`)

// leadingBin is a `bin/` that starts a path (not the tail of /usr/local/bin/).
var leadingBin = regexp.MustCompile(`(^|[\s'"(=;|&])bin/`)

// docSubstitutions turn a block's fixed addresses and folders into the test's.
func docSubstitutions(script, addr, sideAddr, brokerPort, tmp string) string {
	script = strings.NewReplacer("127.0.0.1:9876", addr, "127.0.0.1:9880", sideAddr, "listenPort=10911", "listenPort="+brokerPort,
		"/tmp/", tmp+"/").Replace(script)
	return leadingBin.ReplaceAllString(script, "${1}"+binDir+"/")
}

// TestDocsRunnableBlocks runs every runnable block of the README and docs/
// against one fresh NameServer (remoting and side port on free loopback
// ports, data in /tmp/ns-data/ of the block's folder), in file order, each
// with bash -e -o pipefail from the repository's root: a command that fails,
// or a pipeline whose grep finds nothing, fails its block.
func TestDocsRunnableBlocks(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not found: the docs' blocks need it", tool)
			}
			t.Skipf("SKIPPED: %s not found, which the docs' blocks use", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	blocks := runnableBlocks(t, root)
	// The README's tour, operations (several), monitoring and configuration
	// pages hold runnable blocks; far fewer means the marker stopped matching.
	if len(blocks) < 8 {
		t.Fatalf("only %d runnable blocks found", len(blocks))
	}
	tmp := t.TempDir()
	plain := startDocsNamesrv(t, filepath.Join(tmp, "ns-data"))
	var secure *docsNamesrv
	for _, block := range blocks {
		if block.secure && secure == nil {
			secure = startSecureDocsNamesrv(t, root, tmp)
		}
	}
	if secure == nil {
		t.Fatal("no block is marked for the secure profile: security.md lost its runnable blocks")
	}
	for _, block := range blocks {
		t.Run(fmt.Sprintf("%s:%d", block.file, block.line), func(t *testing.T) {
			ns := plain
			if block.secure {
				ns = secure
			}
			script := docSubstitutions(block.script, ns.Addr, ns.side, strconv.Itoa(freePort(t)), tmp)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
			cmd.Dir = root
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			out, err := cmd.CombinedOutput()
			// What a block started in the background (a broker) ends with it.
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			if err != nil {
				t.Fatalf("block failed (%v):\n%s\noutput:\n%s", err, script, out)
			}
			t.Logf("output:\n%s", out)
		})
	}
}

// docsNamesrv is a NameServer the blocks run against, with its side port.
type docsNamesrv struct {
	*process
	side string // host:port of the HTTP side port
}

// startDocsNamesrv starts the plain NameServer: data in dataDir, the side
// port at listenPort + 4 as by default.
func startDocsNamesrv(t *testing.T, dataDir string, extra ...string) *docsNamesrv {
	t.Helper()
	base, ok := nstest.FreePorts(0, 4)
	if !ok {
		t.Fatal("no pair of free ports")
	}
	ns := startNamesrvIn(t, dataDir, base, append([]string{"-httpListenPort", strconv.Itoa(base + 4)}, extra...)...)
	// The side port's views answer 503 "starting" until the server is
	// attached, which comes after the remoting port listens and before
	// the boot line (plain or TLS alike).
	eventually(t, 30*time.Second, "the boot line", func() error {
		if out, err := os.ReadFile(ns.logPath); err != nil || !strings.Contains(string(out), "The Name Server boot success") {
			return fmt.Errorf("not booted yet (%v)", err)
		}
		return nil
	})
	return &docsNamesrv{process: ns, side: fmt.Sprintf("127.0.0.1:%d", base+4)}
}

// startSecureDocsNamesrv starts the NameServer of the secure profile:
// aclEnable with the accounts file docs/security.md shows for it in
// /tmp/plain_acl.yml, tls.server.mode=enforcing with a
// throwaway CA's certificates in /tmp/certs/ (ca.pem, server.pem,
// server.key, client.pem, client.key; the server's names 127.0.0.1), so both
// ports speak TLS only.
func startSecureDocsNamesrv(t *testing.T, root, tmp string) *docsNamesrv {
	t.Helper()
	certDir := filepath.Join(tmp, "certs")
	if err := os.MkdirAll(certDir, 0o755); err != nil {
		t.Fatal(err)
	}
	certs, err := testcerts.Write(certDir)
	if err != nil {
		t.Fatal(err)
	}
	accounts := filepath.Join(tmp, "plain_acl.yml")
	if err := os.WriteFile(accounts, []byte(secureProfileAccounts(t, root)), 0o600); err != nil {
		t.Fatal(err)
	}
	return startDocsNamesrv(t, filepath.Join(tmp, "ns-secure-data"), "-aclEnable", "-aclFile", accounts,
		"-tls.server.mode", "enforcing", "-tls.server.certPath", certs.ServerCert, "-tls.server.keyPath", certs.ServerKey)
}

// accountsMarker precedes the yaml block of docs/security.md that is the
// secure profile's accounts file.
const accountsMarker = "<!-- accounts of the secure profile -->"

// secureProfileAccounts is that block.
func secureProfileAccounts(t *testing.T, root string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), accountsMarker+"\n```yaml\n")
	body, _, closed := strings.Cut(after, "\n```")
	if !ok || !closed {
		t.Fatalf("docs/security.md has no yaml block after %s", accountsMarker)
	}
	return body + "\n"
}

// TestDocSubstitutions: the fixed addresses and folders a block names become
// the test's, and only a leading bin/.
func TestDocSubstitutions(t *testing.T) {
	saved := binDir
	binDir = "/B"
	defer func() { binDir = saved }()
	got := docSubstitutions("bin/mqadmin clusterList -n 127.0.0.1:9876 | grep x\ncurl http://127.0.0.1:9880/readyz; cp /tmp/a /usr/local/bin/\nX=bin/namesrv\nlistenPort=10911", "127.0.0.1:1", "127.0.0.1:5", "7", "/T")
	want := "/B/mqadmin clusterList -n 127.0.0.1:1 | grep x\ncurl http://127.0.0.1:5/readyz; cp /T/a /usr/local/bin/\nX=/B/namesrv\nlistenPort=7"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestReadmeListsEveryMakeTarget: the README's target table names every
// target of the Makefile, as its first line promises.
func TestReadmeListsEveryMakeTarget(t *testing.T) {
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	targets := regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`).FindAllStringSubmatch(string(makefile), -1)
	if len(targets) < 10 {
		t.Fatalf("only %d targets found in the Makefile", len(targets))
	}
	for _, m := range targets {
		if !regexp.MustCompile("(?m)^\\| `make " + regexp.QuoteMeta(m[1]) + "[ `]").Match(readme) {
			t.Errorf("the README's target table has no row for make %s", m[1])
		}
	}
}

// markdownLink is a link outside code: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve: every relative link of the README and docs/ names a
// file that exists and, for a page, a heading it has (GitHub's anchors).
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	notes, _ := filepath.Glob(filepath.Join(root, "docs", "notes", "*.md"))
	pages = append(append([]string{filepath.Join(root, "README.md")}, pages...), notes...)
	checked := 0
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, m := range markdownLink.FindAllStringSubmatch(outsideFences(string(raw)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), path)
			}
			fileRel, _ := filepath.Rel(root, file)
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: %s does not exist", rel, target, fileRel)
				continue
			}
			checked++
			if anchor != "" && strings.HasSuffix(file, ".md") && !slices.Contains(headingAnchors(t, file), anchor) {
				t.Errorf("%s: link %s: %s has no heading #%s", rel, target, fileRel, anchor)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d links checked", checked)
	}
}

// outsideFences is a page without its fenced blocks.
func outsideFences(page string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// headingAnchors are the anchors GitHub gives a page's headings: lower
// case, punctuation but - and _ dropped, spaces as -.
func headingAnchors(t *testing.T, file string) []string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var anchors []string
	for _, line := range strings.Split(outsideFences(string(raw)), "\n") {
		heading, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors = append(anchors, b.String())
	}
	return anchors
}

// confCommand is a command of the docs started with a sample of conf/.
var confCommand = regexp.MustCompile(`-c (conf/[\w.-]+)`)

// TestDocsRunEveryConfFile: each file of conf/ that a command of the README
// or docs/ starts with (-c conf/X) exists and is used by a runnable block,
// so the docs test runs it; TestConfSamplesStart starts each for real.
// (The docs once named conf/namesrv.properties with no conf/ in the tree.)
func TestDocsRunEveryConfFile(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]bool{}
	for _, block := range runnableBlocks(t, root) {
		for _, m := range confCommand.FindAllStringSubmatch(block.script, -1) {
			run[m[1]] = true
		}
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	named := 0
	for _, page := range append([]string{filepath.Join(root, "README.md")}, pages...) {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for i, line := range strings.Split(string(raw), "\n") {
			for _, m := range confCommand.FindAllStringSubmatch(line, -1) {
				named++
				if _, err := os.Stat(filepath.Join(root, m[1])); err != nil {
					t.Errorf("%s:%d: %s does not exist", rel, i+1, m[1])
				}
				if !run[m[1]] {
					t.Errorf("%s:%d: no runnable block uses -c %s", rel, i+1, m[1])
				}
			}
		}
	}
	if named < 3 {
		t.Fatalf("only %d commands with -c conf/ found", named)
	}
}
