package main

import (
	"context"
	"errors"

	"github.com/sirupsen/logrus"

	ctlconfig "github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/namesrv"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/httpapi"
)

// startEmbeddedController runs a controller node inside the NameServer
// process when enableControllerInNamesrv=true, as Java's NamesrvStartup
// does: its settings are the controller keys of the same -c file, it serves
// on the self peer's port (not the NameServer's), and the NameServer itself
// knows nothing of it. Its own side port is off (the file's httpListenPort
// is the NameServer's): the NameServer's side port shows it instead
// (/v1/controller, its metrics, the dashboard panel). It returns the stop
// function (a no-op when off).
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
	svc, err := node.Start(ccfg, log.WithField("service", "controller"))
	if err != nil {
		return nil, err
	}
	ns.AttachController(httpapi.Controller{Status: func() any { return svc.Node.Status() }, Metrics: svc.Node.Metrics().Registry})
	log.WithField("controllerAddr", svc.Node.Self().Addr).Info("embedded controller started (enableControllerInNamesrv)")
	return svc.Shutdown, nil
}
