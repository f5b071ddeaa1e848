package node

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Service is a node with its own remoting server on the self peer's listed
// port (as Java's DLedger controller, which serves brokers there): what
// cmd/controller runs, and what a NameServer embeds.
type Service struct {
	Node   *Node
	Server *remoting.Server
	// closeACL stops the accounts file's watch of a checker the service
	// built (Start); a shared one (StartGuarded) is its owner's to close.
	closeACL func()
}

// Guard is the broker-facing port's protection.
type Guard struct {
	// ACL checks each request by its code's class (access.go); nil checks
	// none.
	ACL *acl.Checker
	// TLS is the port's TLS; nil serves plain TCP only.
	TLS *remoting.TLSOptions
	// BindAddress is the address the port binds; "" every address.
	BindAddress string
}

// Start opens the node and serves it under cfg's own access keys
// (aclEnable, aclFile, tls.server.*, bindAddress): cmd/controller's.
func Start(cfg *config.Config, log *logrus.Entry) (*Service, error) {
	checker, err := portguard.NewChecker(cfg.ACLKeys(), log.WithField("component", "acl"))
	if err != nil {
		return nil, fmt.Errorf("controller acl: %w", err)
	}
	svc, err := StartGuarded(cfg, Guard{ACL: checker, TLS: cfg.TLSKeys().Options(), BindAddress: cfg.BindAddress}, log)
	if err != nil {
		checker.Close()
		return nil, err
	}
	svc.closeACL = checker.Close
	return svc, nil
}

// StartGuarded opens the node and serves its dispatch table on the self
// peer's port, bound on guard.BindAddress (the listed host may be one a
// NAT maps, so not necessarily that host), behind guard's checks and TLS:
// an embedded controller's, with the NameServer's.
func StartGuarded(cfg *config.Config, guard Guard, log *logrus.Entry) (*Service, error) {
	// The settings file UPDATE_CONTROLLER_CONFIG writes: a folder that
	// cannot be written stops the start here, not the first update.
	if err := atomicfile.CheckWritable(cfg.StorePath()); err != nil {
		return nil, fmt.Errorf("configStorePath=%s cannot be written (set configStorePath or controllerStorePath to a folder this user can write): %w", cfg.StorePath(), err)
	}
	n, err := New(cfg, log)
	if err != nil {
		return nil, err
	}
	_, port, err := net.SplitHostPort(n.self.Addr)
	if err != nil {
		return nil, errors.Join(err, n.Shutdown(context.Background()))
	}
	srv := remoting.NewServer(remoting.ServerConfig{Addr: net.JoinHostPort(guard.BindAddress, port), Logger: log,
		Pools: map[string]remoting.PoolSize{PoolName: n.Pool()}, TLS: guard.TLS})
	n.Register(srv, guard.ACL)
	if err := srv.Start(); err != nil {
		return nil, errors.Join(fmt.Errorf("controller port %s: %w", n.self.Addr, err), n.Shutdown(context.Background()))
	}
	n.log.WithFields(logrus.Fields{"addr": srv.Addr().String(), "tls": guard.TLS != nil,
		"acl": guard.ACL != nil && guard.ACL.Guards(acl.BrokerCtl)}).Info("controller serving brokers and admin")
	return &Service{Node: n, Server: srv, closeACL: func() {}}, nil
}

// Shutdown hands a leader's lead to another node first (graceful stop,
// bounded by GracefulTransferTimeout), then stops serving as leader, then
// the server, then the node: the server's closing connections must not
// read as every broker's death to a leader still electing (it would clear
// the master of every set).
func (s *Service) Shutdown(ctx context.Context) error {
	s.Node.handOff(ctx)
	s.Node.drain()
	err := errors.Join(s.Server.Shutdown(ctx), s.Node.Shutdown(ctx))
	s.closeACL()
	return err
}
