package bin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// namesrvArgs are a NameServer's flags on free loopback ports, side port off.
func namesrvArgs(t *testing.T) []string {
	return []string{"-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(freePort(t)), "-httpListenPort", "-1", "-data", t.TempDir()}
}

// TestShutdownStopsOnlyThePidFilesProcess: two NameServers of the same
// binary name on one host, each started by mqnamesrv with its own
// NAMESRV_PID_FILE; mqshutdown namesrv stops the one of its pid file and
// leaves the other serving until it is stopped by its own file.
func TestShutdownStopsOnlyThePidFilesProcess(t *testing.T) {
	binary, _ := uniqueBinary(t)
	dir := t.TempDir()
	var servers []*process
	var envs [][]string
	for _, name := range []string{"a.pid", "b.pid"} {
		env := []string{"NAMESRV_BIN=" + binary, "NAMESRV_PID_FILE=" + filepath.Join(dir, name)}
		p := start(t, env, "sh", append([]string{"mqnamesrv"}, namesrvArgs(t)...)...)
		p.waitPidFile(t, filepath.Join(dir, name))
		servers, envs = append(servers, p), append(envs, env)
	}
	for i, p := range servers {
		if out, err := shutdown(envs[i], "namesrv"); err != nil {
			t.Fatalf("mqshutdown namesrv (%s): %v\n%s", envs[i][1], err, out)
		}
		p.waitCleanExit(t)
		// One SIGTERM each: the other NameServer was not signalled by the
		// first mqshutdown (a second signal would end its stop at once).
		if n := strings.Count(p.out.String(), "stopping name server"); n != 1 || strings.Contains(p.out.String(), "second signal, stopping at once") {
			t.Errorf("NameServer %d: %d graceful stops in the log, want 1:\n%s", i, n, p.out.String())
		}
	}
}

// TestStartRefusedWhileThePidFileRuns: a second mqnamesrv with the same pid
// file is refused while the first runs, naming its pid.
func TestStartRefusedWhileThePidFileRuns(t *testing.T) {
	binary, _ := uniqueBinary(t)
	pidFile := filepath.Join(t.TempDir(), "namesrv.pid")
	env := []string{"NAMESRV_BIN=" + binary, "NAMESRV_PID_FILE=" + pidFile}
	first := start(t, env, "sh", append([]string{"mqnamesrv"}, namesrvArgs(t)...)...)
	first.waitPidFile(t, pidFile)
	cmd := exec.Command("sh", append([]string{"mqnamesrv"}, namesrvArgs(t)...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "already runs as pid "+strconv.Itoa(first.cmd.Process.Pid)) {
		t.Fatalf("second mqnamesrv on %s: %v\n%s", pidFile, err, out)
	}
	if first.hasExited() {
		t.Fatalf("the first NameServer exited: %v\n%s", first.waitErr, first.out.String())
	}
	// Printing the config is no start: it runs beside the NameServer and
	// leaves its pid file alone.
	cmd = exec.Command("sh", "mqnamesrv", "-p")
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "\nlistenPort=") {
		t.Fatalf("mqnamesrv -p beside a running NameServer: %v\n%s", err, out)
	}
	if raw, err := os.ReadFile(pidFile); err != nil || strings.TrimSpace(string(raw)) != strconv.Itoa(first.cmd.Process.Pid) {
		t.Fatalf("pid file after mqnamesrv -p: %q, %v", raw, err)
	}
}

// TestShutdownControllerAndBroker: cmd/controller and cmd/broker started
// with -pidFile in GONAMESRV_PID_DIR are stopped by mqshutdown controller
// and mqshutdown broker, each gracefully (exit status 0, pid file removed).
func TestShutdownControllerAndBroker(t *testing.T) {
	pidDir := t.TempDir()
	env := []string{"GONAMESRV_PID_DIR=" + pidDir}
	store := t.TempDir()
	brokerConf := filepath.Join(store, "broker.conf")
	conf := fmt.Sprintf("brokerName=broker-a\nlistenPort=%d\nbindAddress=127.0.0.1\nstorePathRootDir=%s\n", freePort(t), store)
	if err := os.WriteFile(brokerConf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	for what, args := range map[string][]string{
		"controller": {"-controllerDLegerPeers", fmt.Sprintf("n0-127.0.0.1:%d", repo.FreePort(t, 1000)), "-controllerDLegerSelfId", "n0",
			"-bindAddress", "127.0.0.1",
			"-controllerStorePath", t.TempDir(), "-httpListenPort", "-1"},
		"broker": {"-c", brokerConf},
	} {
		pidFile := filepath.Join(pidDir, what+".pid")
		p := start(t, nil, repo.Binary(t, what), append(args, "-pidFile", pidFile)...)
		p.waitPidFile(t, pidFile)
		if out, err := shutdown(env, what); err != nil {
			t.Fatalf("mqshutdown %s: %v\n%s", what, err, out)
		}
		p.waitCleanExit(t)
		if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
			t.Errorf("%s: pid file left after the stop: %v", what, err)
		}
	}
}

// TestShutdownRefusesAStalePidFile: a pid file whose pid is a process not
// started with that file (left by a crash, the pid reused) is refused and
// that process is not signalled.
func TestShutdownRefusesAStalePidFile(t *testing.T) {
	pidDir := t.TempDir()
	other := start(t, nil, "sleep", "300")
	if err := os.WriteFile(filepath.Join(pidDir, "namesrv.pid"), []byte(strconv.Itoa(other.cmd.Process.Pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A process name nothing has: the fallback by name must not be what
	// answers (nor, on a mqshutdown without pid files, signal anything).
	_, unused := uniqueBinary(t)
	out, err := shutdown([]string{"GONAMESRV_PID_DIR=" + pidDir, "NAMESRV_PROCESS_NAME=" + unused + "x"}, "namesrv")
	if err == nil || !strings.Contains(out, "not signalled") {
		t.Fatalf("mqshutdown on a stale pid file: %v\n%s", err, out)
	}
	if err := other.cmd.Process.Signal(syscall.Signal(0)); err != nil || other.hasExited() {
		t.Fatalf("the process of the stale pid file was signalled: %v", err)
	}
}

// TestShutdownFallbackByName: without a pid file, mqshutdown stops the
// user's only process of the NameServer's name, and refuses (signalling
// none) when there are several.
func TestShutdownFallbackByName(t *testing.T) {
	binary, name := uniqueBinary(t)
	env := []string{"GONAMESRV_PID_DIR=" + t.TempDir(), "NAMESRV_PROCESS_NAME=" + name}
	var servers []*process
	for range 2 {
		pidFile := filepath.Join(t.TempDir(), "watch.pid") // only to know when it runs
		p := start(t, nil, binary, append(namesrvArgs(t), "-pidFile", pidFile)...)
		p.waitPidFile(t, pidFile)
		servers = append(servers, p)
	}
	out, err := shutdown(env, "namesrv")
	if err == nil || !strings.Contains(out, "none signalled") {
		t.Fatalf("mqshutdown with two %s processes and no pid file: %v\n%s", name, err, out)
	}
	for i, p := range servers {
		if p.hasExited() || strings.Contains(p.out.String(), "stopping name server") {
			t.Fatalf("NameServer %d signalled:\n%s", i, p.out.String())
		}
	}
	if err := servers[0].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	servers[0].waitCleanExit(t)
	out, err = shutdown(env, "namesrv")
	if err != nil || !strings.Contains(out, "pid "+strconv.Itoa(servers[1].cmd.Process.Pid)+",") {
		t.Fatalf("mqshutdown with one %s process and no pid file: %v\n%s", name, err, out)
	}
	servers[1].waitCleanExit(t)
}
