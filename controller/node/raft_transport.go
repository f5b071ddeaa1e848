package node

import (
	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
)

// raftTransport is Raft's network transport over raftnet: bound on the self
// peer's Raft address, taking connections only from the listed peers'
// hosts, with mutual TLS when the controllerRaftTls* keys are set.
func (n *Node) raftTransport(cfg *config.Config, logger hclog.Logger) (*raft.NetworkTransport, error) {
	hosts, err := peerHosts(n.self, n.peerList())
	if err != nil {
		return nil, err
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
	n.stream = stream
	return raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{Stream: stream, MaxPool: raftMaxPool,
		Timeout: raftIOTimeout, Logger: logger}), nil
}
