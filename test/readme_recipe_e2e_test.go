package test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// recipeBlock is the first ```sh block after heading in the markdown file.
func recipeBlock(t *testing.T, file, heading string) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	at := strings.Index(text, "\n"+heading+"\n")
	if at < 0 {
		t.Fatalf("%s has no heading %q", file, heading)
	}
	text = text[at:]
	start := strings.Index(text, "```sh\n")
	end := strings.Index(text[start+6:], "\n```")
	if start < 0 || end < 0 {
		t.Fatalf("%s: no sh block under %q", file, heading)
	}
	return text[start+6 : start+6+end]
}

// TestLocalClusterRecipesRunAsWritten replays the "Start a local cluster"
// blocks of docs/operations.md and broker/README.md -- two NameServers on one host
// that differ only in -listenPort, a broker pair registering with both --
// changing only what the host needs: the fixed ports (9876, 9877, 10911,
// 10921) become free ones at the same distances (the side ports then are
// base+4 and base+5, as 9880 and 9881), /tmp/ becomes a test folder, bin/
// the test's binaries, and the `go build` line is left out (TestMain built
// them). Before the side port followed the listen port, the second
// NameServer stopped at once: both asked for 9880.
func TestLocalClusterRecipesRunAsWritten(t *testing.T) {
	for _, src := range []struct{ file, heading string }{
		{"../docs/operations.md", "### Start a local cluster"},
		{"../broker/README.md", "## Start a local cluster"},
	} {
		t.Run(strings.TrimPrefix(src.file, "../"), func(t *testing.T) {
			runLocalClusterRecipe(t, recipeBlock(t, src.file, src.heading))
		})
	}
}

func runLocalClusterRecipe(t *testing.T, block string) {
	base, ok := nstest.FreePorts(0, 1, 4, 5)
	if !ok {
		t.Fatal("no run of free ports")
	}
	brokerPort, brokerSlavePort := freePort(t), freePort(t)
	dir := t.TempDir()
	var lines []string
	for _, line := range strings.Split(block, "\n") {
		if strings.HasPrefix(line, "go build ") {
			continue
		}
		lines = append(lines, line)
	}
	script := strings.NewReplacer(
		"bin/", binDir+"/", "/tmp/", dir+"/",
		"9876", strconv.Itoa(base), "9877", strconv.Itoa(base+1),
		"10911", strconv.Itoa(brokerPort), "10921", strconv.Itoa(brokerSlavePort),
	).Replace(strings.Join(lines, "\n"))
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logPath := filepath.Join(dir, "recipe.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	t.Cleanup(func() {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			t.Logf("script:\n%s\noutput:\n%s", script, out)
		}
	})
	for i, port := range []int{base, base + 1} {
		nsAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		eventually(t, 30*time.Second, fmt.Sprintf("NameServer %d knows broker-a's master and slave", i+1), func() error {
			known, err := brokerAddrsOf(nsAddr)
			if err != nil {
				return err
			}
			for _, want := range []string{
				fmt.Sprintf("broker-a/0=127.0.0.1:%d", brokerPort), fmt.Sprintf("broker-a/1=127.0.0.1:%d", brokerSlavePort),
			} {
				if !known[want] {
					return fmt.Errorf("%s not among %v", want, known)
				}
			}
			return nil
		})
		side := fmt.Sprintf("http://127.0.0.1:%d/healthz", port+4)
		if code, body := nstest.HTTPGet(t, side); code != 200 {
			t.Fatalf("side port of NameServer %d (%s): %d %s", i+1, side, code, body)
		}
	}
}
