package node

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Service is a node with its own remoting server on the self peer's listed
// port (as Java's DLedger controller, which serves brokers there): what
// cmd/controller runs, and what a NameServer embeds.
type Service struct {
	Node   *Node
	Server *remoting.Server
}

// Start opens the node and serves its dispatch table on the self peer's
// port, bound on every address (the listed host may be one a NAT maps).
func Start(cfg *config.Config, log *logrus.Entry) (*Service, error) {
	n, err := New(cfg, log)
	if err != nil {
		return nil, err
	}
	_, port, err := net.SplitHostPort(n.self.Addr)
	if err != nil {
		return nil, errors.Join(err, n.Shutdown(context.Background()))
	}
	srv := remoting.NewServer(remoting.ServerConfig{Addr: net.JoinHostPort("", port), Logger: log,
		Pools: map[string]remoting.PoolSize{PoolName: n.Pool()}})
	n.Register(srv)
	if err := srv.Start(); err != nil {
		return nil, errors.Join(fmt.Errorf("controller port %s: %w", n.self.Addr, err), n.Shutdown(context.Background()))
	}
	n.log.WithField("addr", srv.Addr().String()).Info("controller serving brokers and admin")
	return &Service{Node: n, Server: srv}, nil
}

// Shutdown stops serving as leader, then the server, then the node: the
// server's closing connections must not read as every broker's death to a
// leader still electing (it would clear the master of every set).
func (s *Service) Shutdown(ctx context.Context) error {
	s.Node.drain()
	return errors.Join(s.Server.Shutdown(ctx), s.Node.Shutdown(ctx))
}
