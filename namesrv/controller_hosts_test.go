package namesrv

import (
	"net/netip"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// controllerAddr's items give their hosts, IPs as they are and names
// resolved (internal/hostset tests the resolution itself); an empty
// controllerAddr gives an empty set, which refuses every notice.
func TestControllerHostsAreControllerAddrsHosts(t *testing.T) {
	h := newControllerHosts("192.0.2.7:9878;localhost:9878;[2001:db8::7]:9878", testlog.Discard())
	for _, ip := range []string{"192.0.2.7", "127.0.0.1", "2001:db8::7"} {
		if !h.Contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s, a host of controllerAddr, is not admitted", ip)
		}
	}
	for _, ip := range []string{"192.0.2.8", "9878::"} {
		if h.Contains(netip.MustParseAddr(ip)) {
			t.Errorf("%s is admitted", ip)
		}
	}
	if empty := newControllerHosts("", testlog.Discard()); !empty.Empty() || empty.Contains(netip.MustParseAddr("127.0.0.1")) {
		t.Fatal("an empty controllerAddr admits a sender")
	}
}
