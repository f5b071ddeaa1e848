package main

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	ctlconfig "github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/internal/latest"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/httpapi"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// startEmbeddedController runs a controller node inside the NameServer
// process when enableControllerInNamesrv=true, as Java's NamesrvStartup
// does: its settings are the controller keys of the same -c file, it serves
// on the self peer's port (not the NameServer's), and the NameServer itself
// knows nothing of it. Its port's access rules are the NameServer's:
// aclEnable, the accounts, the white lists, tls.server.* and bindAddress.
// Its own side port is off (the file's httpListenPort is the NameServer's):
// the NameServer's side port shows it instead (/v1/controller, its
// metrics, the dashboard panel). It returns the stop function (a no-op
// when off).
func startEmbeddedController(cfg *config.Config, ns *namesrv.NameServer, log *logrus.Entry) (func(context.Context) error, error) {
	if !cfg.EnableControllerInNamesrv {
		return func(context.Context) error { return nil }, nil
	}
	if cfg.ConfigFile() == "" {
		return nil, errors.New("enableControllerInNamesrv=true needs the controller keys (controllerDLegerPeers, controllerDLegerSelfId, ...) in the -c file")
	}
	ccfg, err := ctlconfig.FromFile(cfg.ConfigFile())
	if err != nil {
		return nil, err
	}
	ccfg.HTTPListenPort = -1
	// The NameServer's access rules guard the controller's port too: its
	// checker (the same accounts, reloaded once), its TLS and bindAddress,
	// whatever controller keys of those names the file holds.
	guard := node.Guard{ACL: ns.ACL(), TLS: namesrv.TLSOptions(cfg), BindAddress: cfg.BindAddress}
	svc, err := node.StartGuarded(ccfg, guard, log.WithField("service", "controller"))
	var storeErr *node.StoreError
	if errors.As(err, &storeErr) {
		attachDownController(ccfg, ns, err, log)
		return func(context.Context) error { return nil }, nil
	}
	if err != nil {
		return nil, err
	}
	ns.AttachController(httpapi.Controller{Status: func() any { return svc.Node.Status() }, Metrics: svc.Node.Metrics().Registry,
		Down: svc.Node.Down, TransferLeader: svc.Node.TransferLeaderHTTP, AddPeer: svc.Node.AddPeerHTTP, RemovePeer: svc.Node.RemovePeerHTTP})
	stopFollowing := followElections(svc.Node, ns, log)
	log.WithField("controllerAddr", svc.Node.Self().Addr).Info("embedded controller started (enableControllerInNamesrv)")
	return func(ctx context.Context) error {
		stopFollowing()
		return svc.Shutdown(ctx)
	}, nil
}

// attachDownController shows a controller whose store was refused at start
// (damaged raft.db or snapshots): the NameServer goes on serving routes, as
// it would with no controller, and its side port says the controller is
// down: /readyz's body, /v1/controller's "down", rocketmq_controller_up 0.
// A configuration error still stops the start (the caller returns it).
func attachDownController(ccfg *ctlconfig.Config, ns *namesrv.NameServer, err error, log *logrus.Entry) {
	log.WithError(err).Error("embedded controller down: its store was refused at start; the NameServer serves routes without it (docs/operations.md, damaged controller store)")
	reg := prometheus.NewRegistry()
	reg.MustRegister(node.UpGauge(func() bool { return false }))
	status := node.Status{Self: ccfg.SelfID(), Group: ccfg.Group(), Role: "Down", Down: err.Error(),
		Peers: []node.PeerState{}, BrokerSets: []node.SetState{}}
	ns.AttachController(httpapi.Controller{Status: func() any { return status }, Metrics: reg,
		Down: func() error { return err }})
}

// embeddedElectionSets bounds the sets whose election waits for the route
// (a set's newer election replaces its waiting one; past the bound a new
// set's is dropped, and the route follows its master's registration).
const embeddedElectionSets = 4096

// followElections makes the NameServer's route follow each election the
// embedded node applies (every node of the group applies every entry, so
// each NameServer hosting one updates its own route at commit time). Raft's
// apply goroutine only puts the election in a mailbox; one goroutine applies
// them to the route, whose writer lock may be held by a large registration.
// It returns the function that stops that goroutine.
func followElections(n *node.Node, ns *namesrv.NameServer, log *logrus.Entry) func() {
	box := latest.New[string, controller.Election](embeddedElectionSets)
	var dropped ratelog.Limiter
	n.ObserveElections(func(e controller.Election) {
		if !box.Put(e.BrokerName, e) {
			dropped.Log(log, logrus.WarnLevel, func() logrus.Fields {
				return logrus.Fields{"brokerName": e.BrokerName, "limit": embeddedElectionSets}
			}, "election not applied to the route: too many sets wait", time.Now())
		}
	})
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		box.Serve(done, func(e controller.Election) {
			re := route.Election{Cluster: e.ClusterName, BrokerName: e.BrokerName, MasterAddr: e.MasterAddr, Epoch: int64(e.MasterEpoch),
				Identity: e.Identity}
			if err := ns.ApplyElection(re, metrics.ElectionEmbedded); err != nil {
				log.WithError(err).WithField("brokerName", e.BrokerName).Warn("election not applied to the route")
			}
		})
	}()
	return func() { close(done); <-stopped }
}
