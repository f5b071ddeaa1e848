package test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runToExit runs one of our binaries and returns its exit code and output;
// a binary that serves (the lenient code) is stopped after 10 s, which the
// caller sees as a start that did not refuse.
func runToExit(t *testing.T, name string, env []string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, name), args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, out.String() + "\n(still running after 10 s: killed)"
	}
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), out.String()
	}
	if err != nil {
		t.Fatalf("run %s: %v", name, err)
	}
	return 0, out.String()
}

func writeConf(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.properties")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestConfigStrictStartRefusesBadValues: each binary, given a -c file with
// a value that does not parse for its key, exits non-zero naming the file,
// the line, the key and the value (Java starts and ignores it: listenPort=abc
// served on 9876, httpListenPort=abc put the side port on 9880).
func TestConfigStrictStartRefusesBadValues(t *testing.T) {
	home := []string{"HOME=" + t.TempDir()}
	port := strconv.Itoa(freePort(t))
	for _, bad := range []string{"listenPort=abc", "httpListenPort=abc", "enableShutdownGracefully=yes", "scanNotActiveBrokerInterval=5s"} {
		conf := writeConf(t, "# NameServer\n"+bad+"\n")
		key, value, _ := strings.Cut(bad, "=")
		code, out := runToExit(t, "namesrv", home, "-c", conf, "-bindAddress", "127.0.0.1", "-listenPort", port, "-data", t.TempDir())
		if want := fmt.Sprintf("%s:2: %s=%q", conf, key, value); code <= 0 || !strings.Contains(out, want) {
			t.Errorf("namesrv %s: exit %d, want non-zero and %s:\n%s", bad, code, want, out)
		}
	}
	ctlPort := strconv.Itoa(freePort(t))
	for _, bad := range []string{"scanNotActiveBrokerInterval=5s", "enableElectUncleanMaster=yes", "httpListenPort=abc"} {
		conf := writeConf(t, "controllerDLegerPeers=n0-127.0.0.1:"+ctlPort+"\ncontrollerDLegerSelfId=n0\ncontrollerStorePath="+
			filepath.ToSlash(t.TempDir())+"\n"+bad+"\n")
		key, value, _ := strings.Cut(bad, "=")
		code, out := runToExit(t, "controller", home, "-c", conf)
		if want := fmt.Sprintf("%s:4: %s=%q", conf, key, value); code <= 0 || !strings.Contains(out, want) {
			t.Errorf("controller %s: exit %d, want non-zero and %s:\n%s", bad, code, want, out)
		}
	}
	for _, bad := range []string{"listenPort=abc", "autoCreateTopicEnable=yes"} {
		conf := writeConf(t, "brokerName=b\nnamesrvAddr=127.0.0.1:1\nstorePathRootDir="+filepath.ToSlash(t.TempDir())+"\n"+bad+"\n")
		key, value, _ := strings.Cut(bad, "=")
		code, out := runToExit(t, "broker", home, "-c", conf)
		if want := fmt.Sprintf("%s:4: %s=%q", conf, key, value); code <= 0 || !strings.Contains(out, want) {
			t.Errorf("broker %s: exit %d, want non-zero and %s:\n%s", bad, code, want, out)
		}
	}
}

// TestConfigUnknownKeyWarnedAtStart: a typo key starts (Java configs carry
// other components' keys) with a warning naming it and the closest key.
func TestConfigUnknownKeyWarnedAtStart(t *testing.T) {
	ns := startNamesrv(t, "-c", writeConf(t, "listenPrt=9999\n"))
	log, _ := os.ReadFile(ns.logPath)
	if !strings.Contains(string(log), "level=warning") || !strings.Contains(string(log), "key=listenPrt") ||
		!strings.Contains(string(log), "closestKnownKey=listenPort") {
		t.Fatalf("no warning naming listenPrt and listenPort:\n%s", log)
	}
}

// TestConfigMqadminUpdateNamesrvConfig: a typo key is refused (code 1
// naming it), mqadmin exits non-zero and nothing changes (Java: success!
// and nothing changed); a good update says what changed now and what
// waits for a restart.
func TestConfigMqadminUpdateNamesrvConfig(t *testing.T) {
	ns := startNamesrv(t)
	r := mqadmin(t, "updateNamesrvConfig", "-n", ns.Addr, "-k", "orderMesageEnable", "-v", "true")
	if r.code == 0 || strings.Contains(r.stdout, "success") || !strings.Contains(r.stderr, "orderMesageEnable: unknown key (closest known key: orderMessageEnable)") {
		t.Fatalf("typo key: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	if out := mustMqadmin(t, "getNamesrvConfig", "-n", ns.Addr); strings.Contains(out, "orderMesageEnable") {
		t.Fatalf("the refused key was stored:\n%s", out)
	}
	r = mqadmin(t, "updateNamesrvConfig", "-n", ns.Addr, "-k", "scanNotActiveBrokerInterval", "-v", "5s")
	if r.code == 0 || !strings.Contains(r.stderr, "scanNotActiveBrokerInterval") {
		t.Fatalf("bad value: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	if out := mustMqadmin(t, "updateNamesrvConfig", "-n", ns.Addr, "-k", "orderMessageEnable", "-v", "true"); !strings.Contains(out, ns.Addr+": changed now: orderMessageEnable\n") {
		t.Fatalf("live key:\n%s", out)
	}
	if out := mustMqadmin(t, "updateNamesrvConfig", "-n", ns.Addr, "-k", "serverSocketBacklog", "-v", "2048"); !strings.Contains(out, ns.Addr+": changed, waits for a restart: serverSocketBacklog\n") {
		t.Fatalf("restart key:\n%s", out)
	}
	if out := mustMqadmin(t, "updateNamesrvConfig", "-n", ns.Addr, "-k", "orderMessageEnable", "-v", "true"); !strings.Contains(out, ns.Addr+": no key changed\n") {
		t.Fatalf("same value:\n%s", out)
	}
}

// TestControllerConfigStaysWithItsNode: two controllers of one user, both
// without configStorePath, keep their settings beside their own stores
// (controllerStorePath/raft-<selfId>/controller.properties), not in Java's
// shared ~/controller/controller.properties: an update to one is not read
// back by the other; mqadmin updateControllerConfig reports the change and
// exits non-zero on a typo key.
func TestControllerConfigStaysWithItsNode(t *testing.T) {
	home := t.TempDir()
	var addrs, stores []string
	start := func() {
		addrs0, peers := groupPeers(t, 1)
		store := t.TempDir()
		p := &process{t: t, name: "controller", env: []string{"HOME=" + home}, Addr: addrs0[0], DataDir: store,
			args: []string{"-controllerDLegerGroup", "g", "-controllerDLegerPeers", peers[0], "-controllerDLegerSelfId", "n0",
				"-controllerStorePath", store, "-httpListenPort", "-1"}}
		p.start()
		addrs, stores = append(addrs, addrs0[0]), append(stores, store)
	}
	start()
	r := mqadmin(t, "updateControllerConfig", "-a", addrs[0], "-k", "scanInactiveMastrInterval", "-v", "1000")
	if r.code == 0 || !strings.Contains(r.stderr, "scanInactiveMastrInterval") {
		t.Fatalf("typo key: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	out := mustMqadmin(t, "updateControllerConfig", "-a", addrs[0], "-k", "enableElectUncleanMaster", "-v", "true")
	stored, err := os.ReadFile(filepath.Join(stores[0], "raft-n0", "controller.properties"))
	if err != nil || !strings.HasPrefix(string(stored), "#set by UPDATE_CONTROLLER_CONFIG on g/n0: enableElectUncleanMaster\n") {
		t.Fatalf("the node's own file (%v):\n%s", err, stored)
	}
	if _, err := os.Stat(filepath.Join(home, "controller", "controller.properties")); err == nil {
		t.Fatal("the update was written to the user's shared ~/controller/controller.properties")
	}
	start() // started after the update, as the embedded controller
	if out := mustMqadmin(t, "getControllerConfig", "-a", addrs[1]); !strings.Contains(out, "enableElectUncleanMaster                          =  false\n") {
		t.Fatalf("the other controller runs with the update:\n%s", out)
	}
	if !strings.Contains(out, addrs[0]+": changed now: enableElectUncleanMaster\n") {
		t.Fatalf("update output:\n%s", out)
	}
}
