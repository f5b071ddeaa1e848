package systemd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

func TestMain(m *testing.M) { repo.Main(m) }

// unit is a unit file's [Service] settings (the last value of each key) and
// the binary its ExecStart runs.
type unit struct {
	service map[string]string
	binary  string
}

func readUnit(t *testing.T, file string) unit {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := unit{service: map[string]string{}}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			key, value, _ := strings.Cut(line, "=")
			u.service[key] = value
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	u.binary, _, _ = strings.Cut(u.service["ExecStart"], " ")
	return u
}

// TestNameServerUnitIsHardened: its own user, no privilege gain, the system
// read-only but its state folder, a file limit above maxConnections' default.
func TestNameServerUnitIsHardened(t *testing.T) {
	for _, file := range []string{"gonamesrv.service", "gonamesrv@.service", "gonamesrv-broker@.service"} {
		u := readUnit(t, file)
		want := map[string]string{
			"DynamicUser":     "yes",
			"NoNewPrivileges": "yes",
			"ProtectSystem":   "strict",
			"ProtectHome":     "yes",
			"KillSignal":      "SIGTERM",
		}
		for key, value := range want {
			if u.service[key] != value {
				t.Errorf("%s: %s=%q, want %q", file, key, u.service[key], value)
			}
		}
		if u.service["StateDirectory"] == "" || u.service["ConfigurationDirectory"] == "" {
			t.Errorf("%s: no StateDirectory/ConfigurationDirectory", file)
		}
		if u.service["CapabilityBoundingSet"] != "" {
			t.Errorf("%s: capabilities kept: %q", file, u.service["CapabilityBoundingSet"])
		}
	}
	for _, file := range []string{"gonamesrv.service", "gonamesrv@.service"} {
		checkNameServerFolders(t, file)
	}
}

// checkNameServerFolders: the folders namesrv writes (-data) and reads (-c)
// are the unit's own, and its file limit leaves room for maxConnections.
func checkNameServerFolders(t *testing.T, file string) {
	t.Helper()
	u := readUnit(t, file)
	exec := u.service["ExecStart"]
	if !strings.Contains(exec, "-data /var/lib/"+u.service["StateDirectory"]) ||
		!strings.Contains(exec, "-c /etc/"+u.service["ConfigurationDirectory"]+"/") {
		t.Errorf("%s: ExecStart %q does not use StateDirectory %s and ConfigurationDirectory %s",
			file, exec, u.service["StateDirectory"], u.service["ConfigurationDirectory"])
	}
	if nofile, err := strconv.Atoi(u.service["LimitNOFILE"]); err != nil || nofile < 50000+1024 {
		t.Errorf("%s: LimitNOFILE=%q leaves no room for maxConnections' default 50000", file, u.service["LimitNOFILE"])
	}
}

// TestStopMatchesTheBinary: cmd/namesrv stops gracefully on the signal the
// unit sends, and the unit waits for the whole graceful stop (default GO_AWAY
// wait plus the in-flight deadline, read from the source) before SIGKILL.
func TestStopMatchesTheBinary(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repo.Root(t), "cmd", "namesrv", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"gonamesrv.service", "gonamesrv@.service"} {
		checkStop(t, file, src)
	}
}

// checkStop: the unit's KillSignal is one cmd/namesrv (source src) stops
// gracefully on, and TimeoutStopSec covers the whole graceful stop.
func checkStop(t *testing.T, file string, src []byte) {
	t.Helper()
	u := readUnit(t, file)
	sig := "syscall." + u.service["KillSignal"]
	if !regexp.MustCompile(`signal\.Notify\([^)]*` + regexp.QuoteMeta(sig)).Match(src) {
		t.Fatalf("%s: cmd/namesrv does not stop gracefully on %s", file, sig)
	}
	m := regexp.MustCompile(`shutdownTimeout = (\d+) \* time\.Second`).FindSubmatch(src)
	if m == nil {
		t.Fatal("cmd/namesrv's shutdownTimeout not found")
	}
	inFlight, _ := time.ParseDuration(string(m[1]) + "s")
	const goAwayDefault = 30 * time.Second // shutdownWaitTimeSeconds' default
	stop, err := time.ParseDuration(u.service["TimeoutStopSec"])
	if err != nil || stop < inFlight+goAwayDefault {
		t.Errorf("%s: TimeoutStopSec=%q, below the graceful stop's %s", file, u.service["TimeoutStopSec"], inFlight+goAwayDefault)
	}
}

// TestSystemdAnalyzeVerify runs systemd-analyze verify on each unit, as an
// instance, with ExecStart pointed at a built binary (verify refuses a
// command that does not exist); any warning fails the test.
func TestSystemdAnalyzeVerify(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (it comes with systemd): the units are not verified here")
	}
	dir := t.TempDir()
	binary := repo.Namesrv(t)
	for file, instance := range map[string]string{"gonamesrv.service": "gonamesrv.service", "gonamesrv@.service": "gonamesrv@a.service", "gonamesrv-broker@.service": "gonamesrv-broker@a.service"} {
		u := readUnit(t, file)
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		copy := filepath.Join(dir, instance)
		if err := os.WriteFile(copy, []byte(strings.ReplaceAll(string(raw), u.binary, binary)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(analyze, "verify", copy).CombinedOutput()
		if err != nil || strings.Contains(string(out), instance) {
			t.Errorf("systemd-analyze verify %s: %v\n%s", file, err, out)
		}
	}
}
