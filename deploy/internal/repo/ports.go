package repo

import (
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"testing"
)

// FreePort is a port free on every interface (the controller's default
// bindAddress is 0.0.0.0), with port+offset free too when offset is not 0
// (a controller's Raft port is its remoting port + 1000), and never one an
// earlier call of this test binary gave. It is picked below the kernel's
// ephemeral range (32768 and up): a port the kernel handed out from there
// was taken by an outgoing connection (another package's test, or a node
// dialling its peers) before the process bound it, in CI ("bind: address
// already in use"; deploy's packages run in parallel). The rule is the
// server tests' internal/nstest.FreePort; deploy is its own module and
// does not import the server's.
func FreePort(t testing.TB, offset int) int {
	t.Helper()
	givenMu.Lock()
	defer givenMu.Unlock()
	for range 200 {
		port := 20000 + rand.IntN(12000)
		if given[port] || given[port+offset] || !portFree(port) || (offset != 0 && !portFree(port+offset)) {
			continue
		}
		given[port], given[port+offset] = true, true
		return port
	}
	t.Fatal("no free port below the ephemeral range")
	return 0
}

var (
	givenMu sync.Mutex
	given   = map[int]bool{}
)

// portFree reports whether nobody listens on port, on any interface.
func portFree(port int) bool {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	_ = ln.Close()
	return true
}
