package namesrv

import (
	"runtime"
	"testing"
)

func TestRegistrationWorkersLeaveAProcessorToTheLoops(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	if got, want := registrationWorkers(1024), max(1, procs-1); got != want {
		t.Errorf("registrationWorkers(1024) = %d with GOMAXPROCS %d, want %d", got, procs, want)
	}
	if got := registrationWorkers(1); got != 1 {
		t.Errorf("registrationWorkers(1) = %d, want the configured 1", got)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if got := registrationWorkers(16); got != 1 {
		t.Errorf("registrationWorkers(16) = %d with one processor, want 1", got)
	}
}
