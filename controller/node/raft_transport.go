package node

import (
	"net"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
)

// raftTransport is Raft's network transport over raftnet: bound on the self
// peer's Raft address, taking connections only from the listed peers'
// hosts, with mutual TLS when the controllerRaftTls* keys are set.
func (n *Node) raftTransport(cfg *config.Config, logger hclog.Logger) (*raft.NetworkTransport, error) {
	hosts := make([]string, 0, len(n.peers))
	for _, p := range n.peers {
		host, _, err := net.SplitHostPort(p.RaftAddr)
		if err != nil {
			return nil, err
		}
		hosts = append(hosts, host)
	}
	opts := raftnet.Options{Addr: n.self.RaftAddr, PeerHosts: hosts, Log: n.log.WithField("component", "raftnet"),
		Refused: func(reason string) { n.metrics.raftRefused.WithLabelValues(reason).Inc() }}
	if cfg.RaftTLS() {
		opts.TLS = &raftnet.TLSFiles{CertPath: cfg.RaftTLSCertPath, KeyPath: cfg.RaftTLSKeyPath, TrustCertPath: cfg.RaftTLSTrustCertPath}
	}
	stream, err := raftnet.Listen(opts)
	if err != nil {
		return nil, err
	}
	return raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{Stream: stream, MaxPool: raftMaxPool,
		Timeout: raftIOTimeout, Logger: logger}), nil
}
