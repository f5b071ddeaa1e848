package route

import "testing"

// TestYielderCountsTicks: the offer comes at every yieldEvery-th tick and
// the count goes on past it.
func TestYielderCountsTicks(t *testing.T) {
	var y yielder
	for range 3*yieldEvery + 1 {
		y.tick()
	}
	if y.n != 3*yieldEvery+1 {
		t.Fatalf("%d ticks counted, want %d", y.n, 3*yieldEvery+1)
	}
}
