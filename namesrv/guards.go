package namesrv

import "github.com/gonamesrv/gonamesrv/namesrv/metrics"

// guardCounts reads the descriptor and heavy-view bounds of both ports for
// the metrics (atomic loads only).
func (ns *NameServer) guardCounts() metrics.GuardCounts {
	g := metrics.GuardCounts{Evicted: ns.server.EvictedConnections(), Handshakes: ns.server.Handshakes(),
		HandshakesRefused: ns.server.HandshakesRefused()}
	if side := ns.obs.http; side != nil {
		g.HTTPOpen, g.HTTPMax = side.OpenConnections(), int64(side.MaxConnections())
		g.HTTPRefused, g.HTTPEvicted = side.RefusedConnections(), side.EvictedConnections()
		g.HeavyRefused, g.HeavyMemory = side.HeavyViewsRefused(), side.HeavyViewMemory()
	}
	return g
}
