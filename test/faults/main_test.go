// Package faults is the fault suite of issue 13: it builds the real
// binaries, starts them on loopback (or in network namespaces it creates),
// injects the failures a NameServer meets in production (kills, pauses,
// restarts, floods, network and disk faults) and checks what the routes,
// the KV store and the clients see. Every step is bounded in time and count.
//
// `go test ./test/faults/` (hence `make test` and CI) runs the short form;
// FAULTS_FULL=1 (`make faults`) runs every case, and FAULTS_REPORT=FILE
// writes what each case injected and observed, its figures and its verdict
// to FILE (docs/reliability.md).
package faults

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// binDir holds cmd/namesrv, cmd/broker and cmd/controller, built once by TestMain.
var binDir string

func TestMain(m *testing.M) {
	if os.Getenv(floodSendersEnv) != "" { // the flood's senders (flood_senders_test.go): no binaries needed
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "gonamesrv-faults-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "faults: temp dir:", err)
		os.Exit(1)
	}
	build := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "../../cmd/namesrv", "../../cmd/broker", "../../cmd/controller")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "faults: go build:", err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	if path := os.Getenv("FAULTS_REPORT"); path != "" {
		if err := writeReport(path); err != nil {
			fmt.Fprintln(os.Stderr, "faults: report:", err)
			code = 1
		}
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// full says whether the whole suite runs (make faults) rather than the
// short form CI runs.
func full() bool { return os.Getenv("FAULTS_FULL") != "" }

// fullOnlyCase names the cases fullOnly keeps out of the short form.
var fullOnlyCase = map[string]bool{}

// fullOnly skips a case outside make faults; call it before record.
func fullOnly(t *testing.T) {
	t.Helper()
	fullOnlyCase[t.Name()] = true
	if !full() {
		t.Skip("part of the whole fault suite only: make faults (FAULTS_FULL=1)")
	}
}
