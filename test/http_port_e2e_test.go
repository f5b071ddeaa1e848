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

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// TestTakenHTTPPortStopsTheStartNamingTheKey: a side port somebody else
// holds stops the start, status 1, with a message that names
// httpListenPort and what to do, for an explicit port and for the default
// one (listenPort + 4) alike.
func TestTakenHTTPPortStopsTheStartNamingTheKey(t *testing.T) {
	// A remoting port and the default side port 4 above it, both free, so
	// that only the one held here is taken (a port picked alone could have
	// its -4 neighbour in use as some connection's ephemeral port).
	base, ok := nstest.FreePorts(0, 4)
	if !ok {
		t.Skip("no two free loopback ports 4 apart")
	}
	taken := base + 4
	holder, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(taken)))
	if err != nil {
		t.Skipf("port %d taken meanwhile: %v", taken, err)
	}
	defer holder.Close()
	for name, args := range map[string][]string{
		"explicit": {"-listenPort", strconv.Itoa(freePort(t)), "-httpListenPort", strconv.Itoa(taken)},
		"default":  {"-listenPort", strconv.Itoa(base)},
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
