package target

import (
	"errors"
	"flag"
	"net"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
)

// helperEnv makes the test binary act as a server: started by StartNamesrv
// with the NameServer's flags, it listens on -listenPort until SIGTERM.
const helperEnv = "NSBENCH_TARGET_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helperServer())
	}
	os.Exit(m.Run())
}

func helperServer() int {
	fs := flag.NewFlagSet("helper", flag.ContinueOnError)
	bind := fs.String("bindAddress", "", "")
	port := fs.String("listenPort", "", "")
	_ = fs.String("data", "", "")
	_ = fs.String("httpListenPort", "", "")
	_ = fs.String("readinessWarmUpMillis", "", "")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	l, err := net.Listen("tcp", net.JoinHostPort(*bind, *port))
	if err != nil {
		return 1
	}
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	<-stop
	return 0
}

func TestStartNamesrvRunsTheBinaryUntilStop(t *testing.T) {
	t.Setenv(helperEnv, "1")
	s, err := StartNamesrv(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != report.TargetNamesrv || s.PID <= 0 || s.ResidentBytes() <= 0 {
		t.Fatalf("server %+v, rss %d", s, s.ResidentBytes())
	}
	conn, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatalf("not listening on %s: %v", s.Addr, err)
	}
	conn.Close()
	dataDir, pid := s.dataDir, s.PID
	s.Stop()
	if _, err := os.Stat(dataDir); !os.IsNotExist(err) {
		t.Fatalf("data folder %s left behind (%v)", dataDir, err)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatal("process still running after Stop")
	}
	s.Stop() // a second stop is harmless
}

func TestStartNamesrvReportsAServerThatExits(t *testing.T) {
	_, err := StartNamesrv("/bin/false")
	if !errors.Is(err, ErrNotListening) {
		t.Fatalf("err %v, want ErrNotListening", err)
	}
	if _, err := StartNamesrv("/no/such/binary"); err == nil {
		t.Fatal("no error for a missing binary")
	}
}

func TestExternalIsNeverStopped(t *testing.T) {
	s := External(report.TargetNamesrv, "127.0.0.1:9876", os.Getpid())
	s.Stop()
	if s.ResidentBytes() <= 0 {
		t.Fatal("an external server with a pid reports its memory")
	}
	if External(report.TargetNamesrv, "x", 0).ResidentBytes() != 0 {
		t.Fatal("without a pid the memory is unknown")
	}
}

func TestLayoutFlags(t *testing.T) {
	got := LayoutFlags(load.LayoutSpec{Clusters: 4, BrokersPerCluster: 8, TopicsPerCluster: 10000, QueueNums: 16})
	want := []string{"-clusters", "4", "-brokers", "8", "-topics", "10000", "-queues", "16"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
