package namesrv

import (
	"runtime"
	"testing"
)

func TestRegistrationSlotsLeaveAProcessorFree(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	for procs, want := range map[int]int{1: 1, 2: 1, 4: 3, 16: 15} {
		runtime.GOMAXPROCS(procs)
		if got := registrationSlots(); got != want {
			t.Errorf("GOMAXPROCS %d: %d slots, want %d", procs, got, want)
		}
	}
}

func TestSlotsBound(t *testing.T) {
	s := newSlots(2)
	s.acquire()
	s.acquire()
	select {
	case s <- struct{}{}:
		t.Fatal("a third acquire got a slot of two")
	default:
	}
	s.release()
	s.acquire() // a released slot is free again
}
