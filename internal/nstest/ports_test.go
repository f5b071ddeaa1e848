package nstest

import (
	"fmt"
	"net"
	"testing"
)

// TestFreshPortSkipsPortsGivenBeforeAndUncheckable: a picker that offers the
// same ports again, and one it could not check, yields each port once.
func TestFreshPortSkipsPortsGivenBeforeAndUncheckable(t *testing.T) {
	offers := []struct {
		port int
		free bool
	}{{61001, true}, {61001, true}, {61002, false}, {61003, true}, {61001, true}, {61003, true}}
	next := 0
	pick := func() (int, bool) {
		if next == len(offers) {
			return 61001, true // from here on only a port given before
		}
		o := offers[next]
		next++
		return o.port, o.free
	}
	for _, want := range []int{61001, 61003} {
		if port, ok := FreshPort(pick); !ok || port != want {
			t.Fatalf("FreshPort = %d, %v; want %d", port, ok, want)
		}
	}
	if port, ok := FreshPort(pick); ok {
		t.Fatalf("FreshPort gave %d again, want none after 100 repeated offers", port)
	}
}

// FreePort stays below the ephemeral range, never repeats, and gives a port
// that can be listened on on every address.
func TestFreePortStaysBelowTheEphemeralRange(t *testing.T) {
	seen := map[int]bool{}
	for range 100 {
		port, ok := FreePort()
		if !ok {
			t.Fatal("no free port")
		}
		if port < 20000 || port >= 32000 || seen[port] {
			t.Fatalf("port %d: outside 20000-31999 or given twice", port)
		}
		seen[port] = true
	}
	port, _ := FreePort()
	l, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", port))
	if err != nil {
		t.Fatalf("listen on the free port %d: %v", port, err)
	}
	_ = l.Close()
}

// TestFreePortsGivesARunOfFreshFreePorts: every port of the run is free and
// none is given twice, by FreePorts or FreePort.
func TestFreePortsGivesARunOfFreshFreePorts(t *testing.T) {
	seen := map[int]bool{}
	for range 20 {
		base, ok := FreePorts(0, 1, 4, 5)
		if !ok {
			t.Fatal("no run of free ports")
		}
		for _, off := range []int{0, 1, 4, 5} {
			port := base + off
			if seen[port] {
				t.Fatalf("port %d given twice", port)
			}
			seen[port] = true
			l, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", port))
			if err != nil {
				t.Fatalf("port %d of the run is not free: %v", port, err)
			}
			_ = l.Close()
		}
	}
	if port, _ := FreePort(); seen[port] {
		t.Fatalf("FreePort gave %d, a port of a run", port)
	}
}
