package test

import "testing"

// TestFreePortNeverRepeats: ports taken one after another, each closed before
// the next is asked for (as a test starting a server and its side port
// does), are all different.
func TestFreePortNeverRepeats(t *testing.T) {
	seen := map[int]bool{}
	for range 200 {
		port := freePort(t)
		if seen[port] {
			t.Fatalf("port %d given twice", port)
		}
		seen[port] = true
	}
}
