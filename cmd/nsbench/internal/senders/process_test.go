package senders

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// maxNiceness is the highest niceness Linux gives a process.
const maxNiceness = 19

// childEnv makes this test binary act as the storm senders child.
const childEnv = "NSBENCH_SENDERS_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		job, err := ParseJob(os.Args[1:], os.Stderr)
		if err != nil {
			os.Exit(2)
		}
		if err := Serve(context.Background(), job, os.Stdin, os.Stdout, testlog.Warnings()); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestStartProcessRunsTheSendersNicedInAChild(t *testing.T) {
	if _, err := exec.LookPath("nice"); err != nil {
		t.Skip("no nice(1) on this machine")
	}
	t.Setenv(childEnv, "1")
	server := newBrokerServer(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	client, err := StartProcess(smallJob(server.addr), []string{self}, Niceness, io.Discard, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	// nice(1) adds to the niceness the test started at (make test may run
	// under nice itself), and Linux stops at 19.
	if want := min(ownNiceness()+Niceness, maxNiceness); client.Nice() != want {
		t.Errorf("child runs at nice %d, want %d (this test at %d, +%d)", client.Nice(), want, ownNiceness(), Niceness)
	}
	if err := client.Begin(); err != nil {
		t.Fatal(err)
	}
	phase, err := client.Result()
	if err != nil {
		t.Fatal(err)
	}
	if phase.Requests == 0 || phase.ErrorCount() != 0 {
		t.Fatalf("phase %+v", phase)
	}
	if registered, _ := server.counts(); registered != smallSpec.Clusters*smallSpec.BrokersPerCluster {
		t.Fatalf("%d connections registered", registered)
	}
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStartProcessReportsAChildThatCannotStart(t *testing.T) {
	t.Setenv(childEnv, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	job := smallJob("127.0.0.1:1")
	job.Spec.Clusters = 0 // ParseJob refuses it: the child exits 2 without a word
	if _, err := StartProcess(job, []string{self}, 0, io.Discard, testlog.Warnings()); err == nil {
		t.Fatal("no error from a child that exited at once")
	}
}
