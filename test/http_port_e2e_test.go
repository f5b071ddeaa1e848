package test

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTakenHTTPPortStopsTheStartNamingTheKey: a side port somebody else
// holds stops the start, status 1, with a message that names
// httpListenPort and what to do, for an explicit port and for the default
// one (listenPort + 4) alike.
func TestTakenHTTPPortStopsTheStartNamingTheKey(t *testing.T) {
	holder, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	taken := holder.Addr().(*net.TCPAddr).Port
	for name, args := range map[string][]string{
		"explicit": {"-listenPort", strconv.Itoa(freePort(t)), "-httpListenPort", strconv.Itoa(taken)},
		"default":  {"-listenPort", strconv.Itoa(taken - 4)},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(binDir, "namesrv"), append([]string{"-bindAddress", "127.0.0.1", "-data", t.TempDir()}, args...)...)
			done := make(chan struct{})
			var out []byte
			go func() { out, err = cmd.CombinedOutput(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("namesrv started although its side port %d is taken:\n%s", taken, out)
			}
			if cmd.ProcessState.ExitCode() != 1 {
				t.Fatalf("exit status %d, want 1:\n%s", cmd.ProcessState.ExitCode(), out)
			}
			if want := fmt.Sprintf("httpListenPort=%d", taken); !strings.Contains(string(out), want) {
				t.Fatalf("the error does not name %q:\n%s", want, out)
			}
		})
	}
}
