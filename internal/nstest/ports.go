package nstest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
)

// givenPorts are the ports FreshPort returned in this process, by number.
var givenPorts sync.Map

// FreshPort returns the first port pick offers that FreshPort has not
// returned before in this process, trying pick at most 100 times; pick says
// false for a port it could not check. A test that takes two ports (a
// server's and its side port's) before either listens would otherwise get
// one twice: the kernel may offer a port just closed again, and a random
// pick may repeat (CI saw the side port take the port its server then could
// not listen on).
func FreshPort(pick func() (port int, free bool)) (int, bool) {
	for range 100 {
		port, free := pick()
		if !free {
			continue
		}
		if _, given := givenPorts.LoadOrStore(port, true); !given {
			return port, true
		}
	}
	return 0, false
}

// FreePort returns a port below the kernel's ephemeral range (32768-60999 by
// default) that nobody listens on, one FreshPort has not returned before.
// An ephemeral port is no good to a server a test starts: between the check
// and the server's listen, a connection of a test running next to it may
// take that port as its source (CI's `go test ./...` saw a broker fail to
// bind one), and floods leave thousands of them in TIME_WAIT.
func FreePort() (int, bool) {
	return FreshPort(func() (int, bool) {
		port := 20000 + rand.IntN(12000)
		l, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", port))
		if err != nil {
			return 0, false
		}
		_ = l.Close()
		return port, true
	})
}

// FreePorts returns a base port such that base+offset is free for every
// offset given (0 included or not), each of them one FreshPort has not
// returned before, for a test that replays a recipe whose ports lie at
// fixed distances (9876 and 9877 with their side ports 9880 and 9881).
func FreePorts(offsets ...int) (int, bool) {
	for range 100 {
		base := 20000 + rand.IntN(12000)
		if !portsFree(base, offsets) {
			continue
		}
		fresh := true
		for _, off := range offsets {
			if _, given := givenPorts.LoadOrStore(base+off, true); given {
				fresh = false
			}
		}
		if fresh {
			return base, true
		}
	}
	return 0, false
}

// portsFree reports whether nobody listens on base+offset for each offset.
func portsFree(base int, offsets []int) bool {
	for _, off := range offsets {
		l, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", base+off))
		if err != nil {
			return false
		}
		_ = l.Close()
	}
	return true
}
