package repo

import (
	"net"
	"strconv"
	"testing"
)

// TestFreePortGivesBindablePortsOnce: each port (and its offset pair) can be
// bound on every interface, lies below the ephemeral range, and is never
// given twice.
func TestFreePortGivesBindablePortsOnce(t *testing.T) {
	seen := map[int]bool{}
	for range 50 {
		p := FreePort(t, 1000)
		if p >= 32768 || p+1000 >= 33768 {
			t.Fatalf("port %d in or near the ephemeral range", p)
		}
		if seen[p] || seen[p+1000] {
			t.Fatalf("port %d given twice", p)
		}
		seen[p], seen[p+1000] = true, true
		for _, q := range []int{p, p + 1000} {
			ln, err := net.Listen("tcp", ":"+strconv.Itoa(q))
			if err != nil {
				t.Fatalf("port %d not bindable: %v", q, err)
			}
			ln.Close()
		}
	}
}
