package faults

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// proc is one running binary of ours, killed when the test ends.
type proc struct {
	t       testing.TB
	name    string
	args    []string
	prefix  []string // run through this command (ip netns exec NAME), or nil
	Addr    string   // where it listens
	logPath string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
}

// startProc starts a binary of binDir and waits until it accepts TCP
// connections on addr (dialled from the root namespace).
func startProc(t testing.TB, name, addr string, prefix []string, args ...string) *proc {
	t.Helper()
	p := &proc{t: t, name: name, args: args, prefix: prefix, Addr: addr}
	logFile, err := os.CreateTemp("", "faults-"+name+"-*.log")
	if err != nil {
		t.Fatalf("log file: %v", err)
	}
	p.logPath = logFile.Name()
	logFile.Close()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			if out, err := os.ReadFile(p.logPath); err == nil {
				t.Logf("%s %s log (last 4 KB):\n%s", name, addr, tail(out, 4096))
			}
		}
		// FAULTS_KEEP_LOGS=1 keeps every process's log for a look after
		// the run (the path is logged).
		if os.Getenv("FAULTS_KEEP_LOGS") != "" {
			t.Logf("%s %s log kept: %s", name, addr, p.logPath)
			return
		}
		_ = os.Remove(p.logPath)
	})
	p.start()
	return p
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// start runs the binary again with the same arguments (its log appended).
func (p *proc) start() {
	t := p.t
	t.Helper()
	logFile, err := os.OpenFile(p.logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatalf("log file: %v", err)
	}
	argv := append(append(append([]string{}, p.prefix...), filepath.Join(binDir, p.name)), p.args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("start %v: %v", argv, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			out, _ := os.ReadFile(p.logPath)
			t.Fatalf("%s exited (%v) before listening on %s:\n%s", p.name, cmd.ProcessState, p.Addr, tail(out, 4096))
		default:
		}
		if c, err := net.DialTimeout("tcp", p.Addr, 200*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s within 20 s", p.name, p.Addr)
}

// signal sends sig to the running process.
func (p *proc) signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Signal(sig)
	}
}

// kill sends SIGKILL (after SIGCONT, so a stopped process dies too) and
// waits for the exit, at most 10 s.
func (p *proc) kill() {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	select {
	case <-exited:
		return
	default:
	}
	_ = cmd.Process.Kill()
	_ = cmd.Process.Signal(syscall.SIGCONT)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		p.t.Errorf("%s did not exit within 10 s of SIGKILL", p.name)
	}
}

// stop sends SIGTERM and waits for the exit, at most timeout; then kills.
func (p *proc) stop(timeout time.Duration) bool {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return true
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		return true
	case <-time.After(timeout):
		p.kill()
		return false
	}
}

// restart kills the process and starts it again.
func (p *proc) restart() {
	p.kill()
	p.start()
}

// pid is the process id (of the prefix command when there is one).
func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Pid
}

// rssBytes reads the resident memory of the process from /proc.
func (p *proc) rssBytes() (int64, error) {
	return statusField(p.pid(), "VmRSS:")
}

// statusField reads a "kB" field of /proc/PID/status, in bytes.
func statusField(pid int, field string) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// logHas says whether the process log holds text.
func (p *proc) logHas(text string) bool {
	out, err := os.ReadFile(p.logPath)
	return err == nil && bytes.Contains(out, []byte(text))
}

// freePort picks a port below the kernel's ephemeral range that nobody
// listens on, never one it returned before (nstest.FreePort): the floods
// leave thousands of ephemeral ports in TIME_WAIT, which a later listener
// could not bind, and two servers must never get the same.
func freePort(t testing.TB) int {
	t.Helper()
	port, ok := nstest.FreePort()
	if !ok {
		t.Fatal("no free port in 20000-31999")
	}
	return port
}

// nsOptions are the NameServer's start settings in a test.
type nsOptions struct {
	host    string   // listen address, 127.0.0.1 by default
	dataDir string   // "" = a fresh temp dir
	port    int      // 0 = a free port
	extra   []string // more flags
	prefix  []string // what the binary is started under (e.g. sh -c 'ulimit -n 256 && exec "$@"' sh)
}

// scanInterval is the eviction period the suite's NameServers use: brokers
// with 3 s timeouts want a scan every second.
const scanInterval = time.Second

// startNamesrv starts cmd/namesrv with the suite's settings.
func startNamesrv(t testing.TB, o nsOptions) *proc {
	t.Helper()
	if o.host == "" {
		o.host = "127.0.0.1"
	}
	if o.dataDir == "" {
		o.dataDir = t.TempDir()
	}
	if o.port == 0 {
		o.port = freePort(t)
	}
	// The HTTP side port is off (a later flag in extra wins): the default 9880
	// would clash between the NameServers of a pair.
	args := append([]string{"-bindAddress", o.host, "-listenPort", strconv.Itoa(o.port), "-data", o.dataDir,
		"-httpListenPort", "-1", "-readinessWarmUpMillis", "0",
		"-scanNotActiveBrokerInterval", strconv.FormatInt(scanInterval.Milliseconds(), 10)}, o.extra...)
	return startProc(t, "namesrv", net.JoinHostPort(o.host, strconv.Itoa(o.port)), o.prefix, args...)
}

// brokerOptions describe one cmd/broker.
type brokerOptions struct {
	cluster, name string
	nameServers   []*proc
	host          string        // brokerIP1 and where it listens, 127.0.0.1 by default
	timeout       time.Duration // heartbeatTimeoutMillis announced (3 s by default)
	prefix        []string      // ip netns exec NAME
	extra         []string      // more broker.conf lines
}

// registerPeriod is the brokers' registration period (below Java's floor,
// allowShortRegisterPeriod); they also send BROKER_HEARTBEAT every second.
const registerPeriod = time.Second

// brokerTimeout is the heartbeat timeout the suite's brokers announce.
const brokerTimeout = 3 * time.Second

// startBroker writes a broker.conf and starts cmd/broker in acting-master
// mode, which is what makes a Java 5.x broker announce its own timeout
// (brokerNotActiveTimeoutMillis) and send BROKER_HEARTBEAT every second.
func startBroker(t testing.TB, o brokerOptions) *proc {
	t.Helper()
	if o.cluster == "" {
		o.cluster = "FaultCluster"
	}
	if o.host == "" {
		o.host = "127.0.0.1"
	}
	if o.timeout == 0 {
		o.timeout = brokerTimeout
	}
	dir := t.TempDir()
	port := freePort(t)
	var addrs []string
	for _, ns := range o.nameServers {
		addrs = append(addrs, ns.Addr)
	}
	conf := append([]string{
		"brokerClusterName=" + o.cluster,
		"brokerName=" + o.name,
		"brokerId=0",
		"namesrvAddr=" + strings.Join(addrs, ";"),
		"listenPort=" + strconv.Itoa(port),
		"brokerIP1=" + o.host,
		"storePathRootDir=" + dir,
		"registerNameServerPeriod=" + strconv.FormatInt(registerPeriod.Milliseconds(), 10),
		"allowShortRegisterPeriod=true",
		"enableSlaveActingMaster=true",
		"brokerHeartbeatInterval=1000",
		"brokerNotActiveTimeoutMillis=" + strconv.FormatInt(o.timeout.Milliseconds(), 10),
	}, o.extra...)
	path := filepath.Join(dir, "broker.conf")
	if err := os.WriteFile(path, []byte(strings.Join(conf, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return startProc(t, "broker", net.JoinHostPort(o.host, strconv.Itoa(port)), o.prefix, "-c", path)
}
