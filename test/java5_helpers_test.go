package test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The opt-in tests against a real Apache RocketMQ 5.3.3 (broker, mqadmin,
// DLedger controller) built by ../shared/java5/build.sh: JAVA5_BUILD names
// its build folder (classpath.txt, home/). `make java5-interop` runs them.

// java5Build returns JAVA5_BUILD, or skips the test saying why.
func java5Build(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("JAVA5_BUILD")
	if dir == "" {
		t.Skip("JAVA5_BUILD is unset: build Java RocketMQ 5.3.3 with ../shared/java5/build.sh and export JAVA5_BUILD=$BASE/build (docs/compatibility.md)")
	}
	if _, err := os.Stat(filepath.Join(dir, "classpath.txt")); err != nil {
		t.Fatalf("JAVA5_BUILD=%s is not a build folder: %v", dir, err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Fatalf("JAVA5_BUILD is set but java is not on PATH: %v", err)
	}
	return dir
}

// java17Opens are the module openings RocketMQ 5.3.3 needs on Java 17.
var java17Opens = []string{"--add-opens", "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED"}

// javaArgs is the command line of one RocketMQ main class: heap, openings,
// a home of its own (logs land under it), logback's per-role file, quiet.
func javaArgs(t *testing.T, build, heap, home, logback, mainClass string, args ...string) *exec.Cmd {
	t.Helper()
	cp, err := os.ReadFile(filepath.Join(build, "classpath.txt"))
	if err != nil {
		t.Fatal(err)
	}
	jargs := append([]string{"-Xmx" + heap, "-XX:TieredStopAtLevel=1"}, java17Opens...)
	jargs = append(jargs, "-Duser.home="+home, "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener",
		"-Dlogback.configurationFile="+filepath.Join(build, "home", "conf", logback), "-cp", strings.TrimSpace(string(cp)), mainClass)
	cmd := exec.Command("java", append(jargs, args...)...)
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+filepath.Join(build, "home"))
	return cmd
}

// javaProc is one running JVM of the test, killed (SIGKILL) when it ends.
type javaProc struct {
	name, Addr, home string
	cmd              *exec.Cmd
	exited           chan struct{}
	out              bytes.Buffer
}

func startJava(t *testing.T, name, addr, home string, cmd *exec.Cmd) *javaProc {
	t.Helper()
	p := &javaProc{name: name, Addr: addr, home: home, cmd: cmd, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &p.out, &p.out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.out.String())
			if logs, _ := filepath.Glob(filepath.Join(home, "logs", "rocketmqlogs", "*.log")); len(logs) > 0 {
				t.Logf("%s logs under %s (kept: the test failed)", name, filepath.Dir(logs[0]))
			}
		}
	})
	// A JVM takes seconds to listen on a loaded machine.
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-p.exited:
			t.Fatalf("%s exited (%v) before listening on %s:\n%s", name, cmd.ProcessState, addr, p.out.String())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			c.Close()
			return p
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s within 90s:\n%s", name, addr, p.out.String())
	return nil
}

// Kill is kill -9 of the JVM, waiting for it to be gone.
func (p *javaProc) Kill() {
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// startJavaController starts Java's DLedger controller as a 1-node group,
// serving brokers on its peer port.
func startJavaController(t *testing.T, build string) *javaProc {
	t.Helper()
	port := freePort(t)
	dir := t.TempDir()
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	conf := strings.Join([]string{"controllerDLegerGroup=jg", "controllerDLegerPeers=n0-" + addr, "controllerDLegerSelfId=n0",
		"controllerStorePath=" + filepath.Join(dir, "store"), "configStorePath=" + filepath.Join(dir, "controller.properties")}, "\n") + "\n"
	confPath := filepath.Join(dir, "controller.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := javaArgs(t, build, "384m", dir, "rmq.controller.logback.xml", "org.apache.rocketmq.controller.ControllerStartup", "-c", confPath)
	return startJava(t, "java-controller", addr, dir, cmd)
}

// javaBrokerSpec is one Java 5.3.3 broker in controller mode.
type javaBrokerSpec struct {
	cluster, name string
	namesrv       string
	controllers   []string
	extra         []string // more broker.conf lines
	classpath     string   // a folder of classes put before the build's
	// probe is how the test's own reads reach the controllers (TLS, a
	// signature); the zero value is a plain, unsigned client.
	probe remoting.ClientConfig
}

// startJavaBroker starts a Java broker with brokerId=-1 in controller mode
// (512 MB heap, small store files) on free ports (listenPort, its fast port
// listenPort-2 and HA port listenPort+1).
func startJavaBroker(t *testing.T, build string, spec javaBrokerSpec) *javaProc {
	t.Helper()
	base, ok := nstest.FreePorts(0, 2, 3)
	if !ok {
		t.Fatal("no free ports for a Java broker")
	}
	port := base + 2
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	conf := strings.Join([]string{
		"brokerClusterName=" + spec.cluster, "brokerName=" + spec.name, "brokerId=-1",
		"namesrvAddr=" + spec.namesrv, "listenPort=" + strconv.Itoa(port), "brokerIP1=127.0.0.1",
		"storePathRootDir=" + store, "storePathCommitLog=" + filepath.Join(store, "commitlog"),
		"enableControllerMode=true", "controllerAddr=" + strings.Join(spec.controllers, ";"),
		"mappedFileSizeCommitLog=67108864", "mappedFileSizeConsumeQueue=300000",
	}, "\n") + "\n" + strings.Join(spec.extra, "\n") + "\n"
	confPath := filepath.Join(dir, "broker.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := javaArgs(t, build, "512m", dir, "rmq.broker.logback.xml", "org.apache.rocketmq.broker.BrokerStartup", "-c", confPath)
	if spec.classpath != "" {
		i := slices.Index(cmd.Args, "-cp")
		cmd.Args[i+1] = spec.classpath + string(os.PathListSeparator) + cmd.Args[i+1]
	}
	cmd.Args = append(cmd.Args[:1], append([]string{"-Xms512m"}, cmd.Args[1:]...)...)
	return startJava(t, fmt.Sprintf("java-broker-%d", port), net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), dir, cmd)
}

// javaMqadmin runs Java's mqadmin and returns its stdout and exit code.
func javaMqadmin(t *testing.T, build string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := javaArgs(t, build, "256m", t.TempDir(), "rmq.tools.logback.xml", "org.apache.rocketmq.tools.command.MQAdminStartup", args...)
	cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...) // same line, bounded
	cmd.Env = append(os.Environ(), "ROCKETMQ_HOME="+filepath.Join(build, "home"), "NAMESRV_ADDR=")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		return stdout.String(), exit.ExitCode()
	} else if err != nil {
		t.Fatalf("java mqadmin %v: %v", args, err)
	}
	return stdout.String(), 0
}
