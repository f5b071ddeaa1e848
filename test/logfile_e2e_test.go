package test

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestLogFileRotatesAndReopensOnSIGHUP runs the real binary with logFile:
// the lines land in the file (nothing on stderr after the line that says
// where the log went), the file is rotated past logMaxSizeMB with the
// backups kept to logMaxBackups, and after the file is moved away SIGHUP
// makes the server write a new one at the configured path, with the mode
// the moved one had.
func TestLogFileRotatesAndReopensOnSIGHUP(t *testing.T) {
	logDir := filepath.Join(t.TempDir(), "logs") // created by the server
	logPath := filepath.Join(logDir, "namesrv.log")
	port := freePort(t)
	dataDir := t.TempDir()
	p := &process{t: t, name: "namesrv", Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), DataDir: dataDir,
		args: []string{"-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port), "-data", dataDir, "-httpListenPort", "-1",
			"-logFile", logPath, "-logMaxSizeMB", "1", "-logMaxBackups", "2"}}
	p.start()

	read := func(path string) string {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		return string(raw)
	}
	eventually(t, 10*time.Second, "start summary in the log file", func() error {
		if !strings.Contains(read(logPath), "name server started") {
			return os.ErrNotExist
		}
		return nil
	})
	if stderr := read(p.logPath); !strings.Contains(stderr, "logging to the log file from now on") || strings.Contains(stderr, "name server started") {
		t.Fatalf("stderr should say where the log went and hold nothing after:\n%s", stderr)
	}

	// Each config update logs its request: 4 KB of value a line, so 3 MB
	// of updates rotate a 1 MB file at least twice.
	update := func(i int) {
		body := []byte("productEnvName=" + strconv.Itoa(i) + strings.Repeat("x", 4000) + "\n")
		resp, err := nstest.Call(p.Addr, remoting.UPDATE_NAMESRV_CONFIG, nil, body, 5*time.Second)
		if err != nil || resp.Code != remoting.SUCCESS {
			t.Fatalf("update %d: %v %+v", i, err, resp)
		}
	}
	for i := range 750 {
		update(i)
	}
	backups := func() []string {
		found, _ := filepath.Glob(filepath.Join(logDir, "namesrv-*.log"))
		return found
	}
	eventually(t, 10*time.Second, "two rotated files", func() error {
		if n := len(backups()); n != 2 {
			return os.ErrNotExist
		}
		return nil
	})
	if info, err := os.Stat(logPath); err != nil || info.Size() > 1<<20 {
		t.Fatalf("current log file after rotation: %v, %v (want at most 1 MiB)", info, err)
	}

	// logrotate's way: move the file, then SIGHUP.
	moved := logPath + ".1"
	if err := os.Rename(logPath, moved); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "a new log file after SIGHUP", func() error {
		if _, err := os.Stat(logPath); err != nil {
			return err
		}
		return nil
	})
	update(9999)
	eventually(t, 10*time.Second, "the next line in the new file", func() error {
		if !strings.Contains(read(logPath), "productEnvName:9999") {
			return os.ErrNotExist
		}
		return nil
	})
	// The new file keeps the mode of the one moved away (0644 under the
	// usual umask), not lumberjack's 0600 for a file it creates.
	movedInfo, err := os.Stat(moved)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != movedInfo.Mode().Perm() {
		t.Errorf("the reopened file's mode: %v, want %v as before the move", info.Mode().Perm(), movedInfo.Mode().Perm())
	}
	if text := read(logPath); !strings.Contains(text, "log file reopened (SIGHUP)") {
		t.Errorf("the new file does not say it was reopened:\n%.500s", text)
	}
	if strings.Contains(read(moved), "productEnvName:9999") {
		t.Error("the moved file still gets lines after SIGHUP")
	}
	select {
	case <-p.exited:
		t.Fatal("SIGHUP stopped the server")
	default:
	}
}
