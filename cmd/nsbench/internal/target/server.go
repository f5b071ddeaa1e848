// Package target starts and stops the servers a benchmark loads: the
// NameServer binary and the zero-work baseline (this tool run as
// "nsbench baseline" in a child process, so its CPU time and memory are
// its own), or a server someone else started.
package target

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
)

// startTimeout bounds the wait for a started server to accept connections.
const startTimeout = 20 * time.Second

// stopTimeout bounds a graceful stop before the process is killed.
const stopTimeout = 15 * time.Second

// ErrNotListening means a started server exited or never accepted a connection.
var ErrNotListening = errors.New("target: server did not start listening")

// Server is one server under load.
type Server struct {
	// Kind is report.TargetNamesrv or report.TargetBaseline.
	Kind string
	Addr string
	// PID is the server's process id, 0 when unknown (its CPU and memory
	// are then not reported).
	PID     int
	cmd     *exec.Cmd
	exited  chan struct{}
	dataDir string
	logFile *os.File
}

// External is a server the tool did not start; it is never stopped.
func External(kind, addr string, pid int) *Server {
	return &Server{Kind: kind, Addr: addr, PID: pid}
}

// StartNamesrv starts the NameServer binary on a free loopback port with a
// fresh data folder and its log in that folder, plus extra flags
// (Java config keys, "-key value").
func StartNamesrv(binary string, extra ...string) (*Server, error) {
	return startNamesrvCommand(binary, nil, extra)
}

// startNamesrvCommand runs binary with leading arguments, the NameServer's
// address and data flags, then extra.
func startNamesrvCommand(binary string, leading, extra []string) (*Server, error) {
	dataDir, err := os.MkdirTemp("", "nsbench-namesrv-")
	if err != nil {
		return nil, fmt.Errorf("namesrv data folder: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append(append(leading, "-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port), "-data", dataDir,
		"-httpListenPort", "0", "-readinessWarmUpMillis", "0"), extra...) // the HTTP side port on a free port: never two servers on 9880; ready at once
	s := &Server{Kind: report.TargetNamesrv, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), dataDir: dataDir}
	if err := s.start(binary, args, dataDir); err != nil {
		_ = os.RemoveAll(dataDir)
		return nil, err
	}
	return s, nil
}

// StartProfiledNamesrv runs the NameServer inside this very executable
// ("nsbench namesrv") with a CPU profile written to profilePath when it
// stops; otherwise as StartNamesrv.
func StartProfiledNamesrv(profilePath string, extra ...string) (*Server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable: %w", err)
	}
	return startNamesrvCommand(self, []string{"namesrv", "-cpuprofile", profilePath}, extra)
}

// StartBaseline runs this very executable as "nsbench baseline" for the
// data of spec on a free loopback port, with a CPU profile written to
// profilePath when it stops ("" for none), extra added to its flags.
func StartBaseline(spec load.LayoutSpec, profilePath string, extra ...string) (*Server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find own executable: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	logDir, err := os.MkdirTemp("", "nsbench-baseline-")
	if err != nil {
		return nil, fmt.Errorf("baseline log folder: %w", err)
	}
	args := append(append([]string{"baseline", "-listen", addr, "-cpuprofile", profilePath}, LayoutFlags(spec)...), extra...)
	s := &Server{Kind: report.TargetBaseline, Addr: addr, dataDir: logDir}
	if err := s.start(self, args, logDir); err != nil {
		_ = os.RemoveAll(logDir)
		return nil, err
	}
	return s, nil
}

// LayoutFlags are the command-line flags that describe spec.
func LayoutFlags(spec load.LayoutSpec) []string {
	return []string{"-clusters", strconv.Itoa(spec.Clusters), "-brokers", strconv.Itoa(spec.BrokersPerCluster),
		"-topics", strconv.Itoa(spec.TopicsPerCluster), "-queues", strconv.Itoa(int(spec.QueueNums))}
}

// start runs the process with its output in logDir/server.log, which
// inherits this process's raised open-file limit, and waits until it listens.
func (s *Server) start(binary string, args []string, logDir string) error {
	logFile, err := os.Create(logDir + "/server.log")
	if err != nil {
		return fmt.Errorf("server log: %w", err)
	}
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return fmt.Errorf("start %s: %w", binary, err)
	}
	s.cmd, s.logFile, s.PID = cmd, logFile, cmd.Process.Pid
	s.exited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(s.exited)
	}()
	if err := s.waitListening(); err != nil {
		s.Stop()
		log, _ := os.ReadFile(logFile.Name())
		return fmt.Errorf("%s %v: %w\n%s", binary, args, err, log)
	}
	return nil
}

func (s *Server) waitListening() error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			return fmt.Errorf("exited before listening on %s: %w", s.Addr, ErrNotListening)
		default:
		}
		if conn, err := net.DialTimeout("tcp", s.Addr, 200*time.Millisecond); err == nil {
			conn.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("not listening on %s after %v: %w", s.Addr, startTimeout, ErrNotListening)
}

// ResidentBytes is the server's resident memory, 0 when unknown.
func (s *Server) ResidentBytes() int64 {
	if s.PID <= 0 {
		return 0
	}
	rss, err := proc.ResidentBytes(s.PID)
	if err != nil {
		return 0
	}
	return rss
}

// Stop ends a server this tool started (SIGTERM, then SIGKILL after
// stopTimeout) and removes its folder; an external server is left alone.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(stopTimeout):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.logFile.Close()
	_ = os.RemoveAll(s.dataDir)
	s.cmd = nil
}

// freePort asks the kernel for a loopback port nobody listens on.
func freePort() (int, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
