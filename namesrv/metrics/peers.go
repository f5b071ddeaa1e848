package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/namesrv/peers"
)

// PeerStatus is what the last check of one peer NameServer found (package
// peers, behind the dashboard's peers panel).
type PeerStatus struct {
	Addr        string
	Up          bool
	RoutesAgree bool
	// RoutesHealing counts the differences still within the heal window.
	RoutesHealing int
	// KV is the last KV config exchange with it; nil when none was done.
	KV *peers.KVStatus
}

// peerCollector exports the peers panel per peer, read at scrape time: the
// peer list follows the config, so the series are made at each scrape.
type peerCollector struct {
	read                         func() []PeerStatus
	up, agrees, healing, kvAgree *prometheus.Desc
}

// registerPeers exports Sources.Peers; nil exports none.
func registerPeers(f factory, read func() []PeerStatus) {
	if read == nil {
		return
	}
	f.reg.MustRegister(&peerCollector{read: read,
		up: desc("peer_up", "1 when the peer NameServer (peerNamesrvAddrs, or addressServerList without this server) "+
			"answered the last check (its cluster table and topic list), 0 when not.", "peer"),
		agrees: desc("peer_routes_agree", "1 when the peer's broker addresses and topic names equal this server's "+
			"but for differences younger than peerRoutesHealMillis (0: a difference lasts), for peers that are up only.", "peer"),
		healing: desc("peer_routes_healing", "Broker addresses and topics on one side only, with a peer that is up, "+
			"first seen less than peerRoutesHealMillis ago: brokers registered on one NameServer and not yet on the other.", "peer"),
		kvAgree: desc("peer_kv_agree", "1 when the last KV config exchange with the peer ended with both stores' "+
			"digests equal (every key's version and value), 0 when not; no series when the exchange failed or none "+
			"was done (no peerAccessKey).", "peer")})
}

func (p *peerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- p.up
	ch <- p.agrees
	ch <- p.healing
	ch <- p.kvAgree
}

func (p *peerCollector) Collect(ch chan<- prometheus.Metric) {
	for _, st := range p.read() {
		ch <- prometheus.MustNewConstMetric(p.up, prometheus.GaugeValue, one(st.Up), st.Addr)
		// A peer that is down has no routes to compare: no series, so an
		// alert on disagreement does not fire with the one on down.
		if st.Up {
			ch <- prometheus.MustNewConstMetric(p.agrees, prometheus.GaugeValue, one(st.RoutesAgree), st.Addr)
			ch <- prometheus.MustNewConstMetric(p.healing, prometheus.GaugeValue, float64(st.RoutesHealing), st.Addr)
		}
		if st.KV != nil && st.KV.Error == "" {
			ch <- prometheus.MustNewConstMetric(p.kvAgree, prometheus.GaugeValue, one(st.KV.Agree), st.Addr)
		}
	}
}

func one(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
