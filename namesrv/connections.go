package namesrv

// The remoting server's connection figures and health, for the daemon's
// owner (cmd/namesrv) and for metrics.

// RefusedConnections counts the connections closed at once for being past
// maxConnections, since start.
func (ns *NameServer) RefusedConnections() uint64 { return ns.server.RefusedConnections() }

// OpenConnections is the number of connections open now.
func (ns *NameServer) OpenConnections() int64 { return ns.server.OpenConnections() }

// Failed is closed when the event loops died by themselves (gnet ended its
// engine, and every connection with it): the process should exit non-zero
// so that its supervisor restarts it. FailErr says why.
func (ns *NameServer) Failed() <-chan struct{} { return ns.server.Failed() }

// FailErr is why Failed was closed, nil while it is not.
func (ns *NameServer) FailErr() error { return ns.server.FailErr() }

// OutboundPauses counts the times a connection's requests were left unread
// because its peer did not read its answers (connectionOutboundSoftLimit).
func (ns *NameServer) OutboundPauses() uint64 { return ns.server.OutboundPauses() }

// OutboundClosedConnections counts the connections closed for holding more
// than connectionOutboundHardLimit.
func (ns *NameServer) OutboundClosedConnections() uint64 {
	return ns.server.OutboundClosedConnections()
}
