package namesrv

import (
	"context"
	"crypto/tls"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// selfLookupTimeout bounds the name lookup of an addressServerList item
// when the watcher decides whether it is this server.
const selfLookupTimeout = time.Second

// startPeerWatch starts the background checks of the peer NameServers
// (package peers) behind the dashboard's peers panel.
func (ns *NameServer) startPeerWatch() {
	log := ns.log.WithField("component", "peers")
	cfg := ns.settings.Get()
	// The account keys are protected (changed only at a restart): read once.
	sign := aclsign.Signer(aclsign.Credentials{AccessKey: cfg.PeerAccessKey, SecretKey: cfg.PeerSecretKey})
	ns.obs.peers = peers.Start(peers.Config{Peers: ns.peerList, Local: ns.routes, TLS: ns.peerTLS(log), Sign: sign, Log: log,
		HealWindow: func() time.Duration {
			return time.Duration(ns.settings.Get().PeerRoutesHealMillis) * time.Millisecond
		}})
}

// peerTLS is how the peers are reached: over TLS when this server enforces
// it (its group's peers will too), verifying their certificates against
// tls.server.trustCertPath when set, as a Java client with
// tls.client.authServer does, presenting none (a server certificate is not
// one a client may present); plain otherwise.
func (ns *NameServer) peerTLS(log *logrus.Entry) *tls.Config {
	cfg := ns.settings.Get()
	if cfg.TLSServerMode != config.TLSModeEnforcing {
		return nil
	}
	tlsCfg, err := remoting.ClientTLS("", "", cfg.TLSServerTrustCertPath)
	if err != nil {
		log.WithError(err).Warn("the peers are asked over TLS without verifying their certificates: tls.server.trustCertPath does not load")
		tlsCfg, _ = remoting.ClientTLS("", "", "")
	}
	return tlsCfg
}

// peerList is the other NameServers of the group: peerNamesrvAddrs, or
// addressServerList without this server. It runs on the watcher's
// goroutine, which may wait for a name lookup.
func (ns *NameServer) peerList() []string {
	cfg := ns.settings.Get()
	if list := config.SplitAddrList(cfg.PeerNamesrvAddrs); len(list) > 0 {
		return list
	}
	var out []string
	for _, item := range config.SplitAddrList(cfg.AddressServerList) {
		if !ns.isSelf(item) {
			out = append(out, item)
		}
	}
	return out
}

// isSelf says whether addr names this server: its port, and a host that is
// (or resolves to) an address of this host. Two servers on one host have
// two ports.
func (ns *NameServer) isSelf(addr string) bool {
	self, ok := ns.Addr().(*net.TCPAddr)
	host, port, err := net.SplitHostPort(addr)
	if !ok || err != nil || port != strconv.Itoa(self.Port) {
		return false
	}
	ips := []net.IP{net.ParseIP(host)}
	if ips[0] == nil {
		ctx, cancel := context.WithTimeout(context.Background(), selfLookupTimeout)
		defer cancel()
		found, err := net.DefaultResolver.LookupIP(ctx, "ip", host)
		if err != nil {
			return false
		}
		ips = found
	}
	bound := self.IP
	local, _ := net.InterfaceAddrs()
	for _, ip := range ips {
		if ip.Equal(bound) || (bound.IsUnspecified() && ip.IsLoopback()) {
			return true
		}
		if bound.IsUnspecified() && slices.ContainsFunc(local, func(a net.Addr) bool {
			n, ok := a.(*net.IPNet)
			return ok && n.IP.Equal(ip)
		}) {
			return true
		}
	}
	return false
}

// nameServerList is the address server's answer: addressServerList; or
// this server's own advertised address followed by peerNamesrvAddrs, the
// `;`-separated list a Java address server answers.
func (ns *NameServer) nameServerList() string {
	cfg := ns.settings.Get()
	if list := strings.TrimSpace(cfg.AddressServerList); list != "" {
		return list
	}
	return strings.Join(append([]string{advertisedAddr(ns.Addr())}, config.SplitAddrList(cfg.PeerNamesrvAddrs)...), ";")
}

// peerCounts is the last checks of the peers for the metrics; none before
// the watcher starts (the metrics are made before the server listens).
func (ns *NameServer) peerCounts() []metrics.PeerStatus {
	w := ns.obs.peers
	if w == nil {
		return nil
	}
	var out []metrics.PeerStatus
	for _, st := range w.Statuses() {
		out = append(out, metrics.PeerStatus{Addr: st.Addr, Up: st.Up, RoutesAgree: st.RoutesAgree,
			RoutesHealing: st.HealingCount, KV: ns.kvStatus(st.Addr)})
	}
	return out
}
