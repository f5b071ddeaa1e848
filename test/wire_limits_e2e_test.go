package test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestNamesrvBinarySurvivesLowFileLimit runs the issue 13 reproduction on
// the real binary: `ulimit -n 64`, 80 connections. Before, gnet's acceptor
// failed with EMFILE and ended the engine: the process stayed up with no
// listener. Now the connections past the cap are closed and the server goes
// on serving; at -log-level warn the start summary still records the
// listen address and the limits in effect.
func TestNamesrvBinarySurvivesLowFileLimit(t *testing.T) {
	port := freePort(t)
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	logPath := filepath.Join(t.TempDir(), "namesrv.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", `ulimit -n 64 && exec "$@"`, "sh",
		filepath.Join(binDir, "namesrv"), "-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port),
		"-data", t.TempDir(), "-log-level", "warn", "-httpListenPort", "-1", "-readinessWarmUpMillis", "0")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			t.Logf("namesrv log:\n%s", out)
		}
	})
	waitListening(t, &process{t: t, name: "namesrv", Addr: addr, logPath: logPath, exited: make(chan struct{})})

	var conns []net.Conn
	for range 80 {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		conns = append(conns, conn)
	}
	frame, err := remoting.Encode(remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	for _, conn := range conns {
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := conn.Write(frame); err == nil {
			if _, err := conn.Read(make([]byte, 4)); err == nil {
				answered++
			}
		}
		conn.Close()
	}
	if answered == 0 || answered == len(conns) {
		t.Fatalf("%d of %d connections answered; want those within the cap only", answered, len(conns))
	}
	eventually(t, 10*time.Second, "a fresh client served after the burst", func() error {
		client := remoting.NewClient(addr, remoting.ClientConfig{})
		defer client.Close()
		resp, err := client.Invoke(nstest.Context(t), remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
		if err != nil {
			return err
		}
		if resp.Code != remoting.SUCCESS {
			return fmt.Errorf("code %d", resp.Code)
		}
		return nil
	})
	select {
	case err := <-exited:
		t.Fatalf("namesrv exited: %v", err)
	default:
	}
	out, _ := os.ReadFile(logPath)
	for _, want := range []string{"start summary", "address=\"" + addr + "\"", "maxConnections=", "connection limit reached"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the warn-level log lacks %q", want)
		}
	}
}
