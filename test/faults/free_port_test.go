package faults

import (
	"slices"
	"testing"
)

// TestFreePortStaysBelowTheEphemeralRangeAndNeverRepeats: the ports handed
// to the fault suite's servers lie in 20000-31999, and asking again and
// again (each port closed before the next is asked for) never gives one twice.
func TestFreePortStaysBelowTheEphemeralRangeAndNeverRepeats(t *testing.T) {
	ports := make([]int, 300)
	for i := range ports {
		ports[i] = freePort(t)
		if ports[i] < 20000 || ports[i] > 31999 {
			t.Fatalf("port %d outside 20000-31999", ports[i])
		}
	}
	slices.Sort(ports)
	if unique := slices.Compact(slices.Clone(ports)); len(unique) != len(ports) {
		t.Fatalf("%d ports asked for, %d different", len(ports), len(unique))
	}
}
