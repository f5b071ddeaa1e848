package pidfiletest

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/pidfile"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestMain(m *testing.M) { Main(m, fakeServer) }

// fakeServer is a command as the binaries do it: the pid file after
// signal.Notify, removed on the way out of a SIGTERM stop.
func fakeServer(args []string) int {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM)
	path, _, err := pidfile.FromArgs(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stop, err := pidfile.Start(path, testlog.Discard())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer stop()
	<-signals
	return 0
}

func TestCheckPassesACommandThatKeepsTheContract(t *testing.T) {
	Check(t)
}
