package bin

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

func TestMain(m *testing.M) { repo.Main(m) }

// freePort is a free port for one server (deploy/internal/repo.FreePort).
func freePort(t *testing.T) int { return repo.FreePort(t, 0) }

// uniqueBinary copies the built NameServer under a name no other process on
// the machine has, so that mqshutdown's search by name finds only ours.
func uniqueBinary(t *testing.T) (path, name string) {
	t.Helper()
	name = fmt.Sprintf("nsdep%d", os.Getpid()%1000000000)
	path = filepath.Join(t.TempDir(), name)
	raw, err := os.ReadFile(repo.Namesrv(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o755); err != nil {
		t.Fatal(err)
	}
	return path, name
}

func get(url string) (int, string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// TestStartQueryShutdown: mqnamesrv -c FILE -KEY VALUE starts the NameServer
// in its own process (exec), writing its pid file; the side port answers
// with the file's and the flags' settings; mqshutdown namesrv signals exactly
// the pid of that file, and it stops gracefully: exit status 0 after logging
// the SIGTERM stop, the pid file removed.
func TestStartQueryShutdown(t *testing.T) {
	binary, _ := uniqueBinary(t)
	dir, pidDir := t.TempDir(), t.TempDir()
	port, httpPort := freePort(t), freePort(t)
	props := filepath.Join(dir, "namesrv.properties")
	if err := os.WriteFile(props, []byte(fmt.Sprintf("listenPort=%d\norderMessageEnable=true\n", port)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"NAMESRV_BIN=" + binary, "GONAMESRV_PID_DIR=" + pidDir}
	p := start(t, env, "sh", "mqnamesrv", "-c", props, "-bindAddress", "127.0.0.1",
		"-httpListenPort", strconv.Itoa(httpPort), "-kvConfigPath", filepath.Join(dir, "kvConfig.json"))

	// /healthz is 200 as soon as the side port listens; /v1/config answers
	// 503 "starting" until the server is attached, after the remoting port
	// listens (a window that nice -n 10 beside a build made last).
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	deadline := time.Now().Add(30 * time.Second)
	var cfg string
	for {
		code, body, err := get(base + "/v1/config")
		if err == nil && code == http.StatusOK {
			cfg = body
			break
		}
		if p.hasExited() {
			t.Fatalf("namesrv exited before serving: %v\n%s", p.waitErr, p.out.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("side port %d not serving /v1/config after 30 s:\n%s", httpPort, p.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, want := range []string{fmt.Sprintf(`"listenPort":"%d"`, port), `"orderMessageEnable":"true"`, `"bindAddress":"127.0.0.1"`} {
		if !strings.Contains(cfg, want) {
			t.Errorf("/v1/config lacks %s: %s", want, cfg)
		}
	}
	if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err != nil {
		t.Errorf("remoting port %d: %v", port, err)
	} else {
		c.Close()
	}
	pidFile := filepath.Join(pidDir, "namesrv.pid")
	// mqnamesrv execs the binary: the pid in the file is the one it started.
	p.waitPidFile(t, pidFile)

	out, err := shutdown(env, "namesrv")
	if err != nil {
		t.Fatalf("mqshutdown namesrv: %v\n%s", err, out)
	}
	if !strings.Contains(out, "pid "+strconv.Itoa(p.cmd.Process.Pid)+",") {
		t.Errorf("mqshutdown did not name pid %d: %s", p.cmd.Process.Pid, out)
	}
	p.waitCleanExit(t)
	if !strings.Contains(p.out.String(), "stopping name server") || !strings.Contains(p.out.String(), "signal=terminated") {
		t.Errorf("no graceful stop on SIGTERM in the log:\n%s", p.out.String())
	}
	if _, err := os.Stat(pidFile); !os.IsNotExist(err) {
		t.Errorf("pid file %s left after the stop: %v", pidFile, err)
	}
	if out, err := shutdown(env, "namesrv"); err == nil {
		t.Errorf("mqshutdown with no NameServer running succeeded: %s", out)
	}
}

// shutdown runs mqshutdown WHAT with env added to the test's environment.
// Its fallback by name looks for process names no process has, unless env
// names one: the machine runs other NameServers (other tests, other users'
// servers under the same account), and a fallback must never reach them.
func shutdown(env []string, what string) (string, error) {
	cmd := exec.Command("sh", "mqshutdown", what)
	none := fmt.Sprintf("nsnone%d", os.Getpid()%1000000000)
	cmd.Env = append(os.Environ(), "NAMESRV_PROCESS_NAME="+none, "CONTROLLER_PROCESS_NAME="+none, "BROKER_PROCESS_NAME="+none)
	cmd.Env = append(cmd.Env, env...) // the last value of a key wins
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestBinaryBesideTheScript: without NAMESRV_BIN, mqnamesrv runs the
// namesrv beside it; -p (Java's printConfigItem) prints the config and exits 0.
func TestBinaryBesideTheScript(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ from, to string }{{"mqnamesrv", "mqnamesrv"}, {repo.Namesrv(t), "namesrv"}} {
		raw, err := os.ReadFile(f.from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.to), raw, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("sh", filepath.Join(dir, "mqnamesrv"), "-p", "-listenPort", "9999")
	cmd.Env = append(os.Environ(), "NAMESRV_BIN=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "\nlistenPort=9999\n") {
		t.Fatalf("mqnamesrv -p: %v\n%s", err, out)
	}
}

// TestShutdownUsage: anything but namesrv, controller or broker is refused
// with the usage, status 1.
func TestShutdownUsage(t *testing.T) {
	out, err := exec.Command("sh", "mqshutdown", "proxy").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), "usage: mqshutdown namesrv|controller|broker") {
		t.Fatalf("mqshutdown proxy: %v\n%s", err, out)
	}
}
