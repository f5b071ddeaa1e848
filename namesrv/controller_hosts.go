package namesrv

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// Limits of the controllerAddr hosts' resolution.
const (
	// controllerResolveInterval paces the resolutions an election notice
	// from an address not among the hosts causes: a stranger's notices
	// cost at most one lookup per interval, and a controller that moved to
	// a new address of its name is known within it.
	controllerResolveInterval = 10 * time.Second
	// controllerResolveTimeout bounds one resolution of every host.
	controllerResolveTimeout = 2 * time.Second
)

// controllerHosts are the IP addresses of the hosts of controllerAddr, the
// only peers whose election notices (code 5001) are taken. Names are
// resolved at start and again, at most once per controllerResolveInterval,
// when a notice comes from an address not among them (a controller whose
// name now resolves elsewhere).
type controllerHosts struct {
	hosts   []string // controllerAddr's hosts, names or IPs, as written
	addrs   atomic.Pointer[map[netip.Addr]struct{}]
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	log     *logrus.Entry

	mu          sync.Mutex // serializes resolutions; guards below
	lastResolve time.Time
	byHost      map[string][]netip.Addr // each host's last good resolution
}

// newControllerHosts resolves the hosts of list (a checked controllerAddr).
func newControllerHosts(list string, log *logrus.Entry) *controllerHosts {
	h := &controllerHosts{log: log, resolve: lookupHost, byHost: map[string][]netip.Addr{}}
	for _, item := range config.SplitAddrList(list) {
		if host, _, err := net.SplitHostPort(item); err == nil {
			h.hosts = append(h.hosts, host)
		}
	}
	empty := map[netip.Addr]struct{}{}
	h.addrs.Store(&empty)
	if len(h.hosts) > 0 {
		h.refresh(time.Now())
	}
	return h
}

// configured says controllerAddr lists at least one host.
func (h *controllerHosts) configured() bool { return len(h.hosts) > 0 }

// admits says whether a notice from addr is a controller's: addr is among
// the resolved hosts, or is after a resolution this call may make (at most
// one per controllerResolveInterval, whoever asks).
func (h *controllerHosts) admits(addr netip.Addr, now time.Time) bool {
	if !addr.IsValid() || !h.configured() {
		return false
	}
	if _, ok := (*h.addrs.Load())[addr]; ok {
		return true
	}
	if !h.refresh(now) {
		return false
	}
	_, ok := (*h.addrs.Load())[addr]
	return ok
}

// refresh resolves every host again unless that was done within the
// interval; it reports whether it did. A host that does not resolve keeps
// its previous addresses, so a DNS failure does not lock the controller out;
// one that does has only its new ones.
func (h *controllerHosts) refresh(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.lastResolve.IsZero() && now.Sub(h.lastResolve) < controllerResolveInterval {
		return false
	}
	h.lastResolve = now
	ctx, cancel := context.WithTimeout(context.Background(), controllerResolveTimeout)
	defer cancel()
	for _, host := range h.hosts {
		addrs, err := h.resolve(ctx, host)
		if err != nil {
			h.log.WithError(err).WithField("host", host).Warn("controllerAddr: host does not resolve; its earlier addresses are kept")
			continue
		}
		h.byHost[host] = addrs
	}
	next := map[netip.Addr]struct{}{}
	for _, addrs := range h.byHost {
		for _, addr := range addrs {
			next[addr.Unmap()] = struct{}{}
		}
	}
	h.addrs.Store(&next)
	return true
}

// lookupHost is an IP as it is, or a name's addresses.
func lookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	if addr, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{addr}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
