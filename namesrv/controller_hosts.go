package namesrv

import (
	"net"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/hostset"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// Limits of the controllerAddr hosts' resolution.
const (
	// controllerResolveInterval paces the resolutions an election notice
	// from an address not among the hosts causes: a stranger's notices
	// cost at most one lookup per interval, and a controller that moved to
	// a new address of its name is known within it.
	controllerResolveInterval = 10 * time.Second
	// controllerResolveTimeout bounds one lookup of one host name.
	controllerResolveTimeout = 2 * time.Second
)

// newControllerHosts is the IP addresses of the hosts of list (a checked
// controllerAddr), the only peers whose election notices (code 5001) are
// taken. Names are resolved at start and again, in the background and at
// most once per controllerResolveInterval, when a notice comes from an
// address not among them (a controller whose name now resolves elsewhere):
// that notice is refused, the next one is judged on the new addresses. A
// host that does not resolve keeps its previous addresses, so a DNS failure
// does not lock the controller out.
func newControllerHosts(list string, log *logrus.Entry) *hostset.Set {
	var hosts []string
	for _, item := range config.SplitAddrList(list) {
		if host, _, err := net.SplitHostPort(item); err == nil {
			hosts = append(hosts, host)
		}
	}
	return hostset.New(hostset.Options{Hosts: hosts, Interval: controllerResolveInterval, Timeout: controllerResolveTimeout,
		Log: log, Unresolved: "controllerAddr: host does not resolve; its earlier addresses are kept"})
}
