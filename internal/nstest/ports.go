package nstest

import "sync"

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
