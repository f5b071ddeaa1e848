package namesrv

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// ApplyElection makes the route follow a controller's election at once:
// the old master out, the elected one at broker id 0, and, with
// controllerFencing, the set's registrations as id 0 fenced by its epoch
// (route.Manager.ApplyElection). source is metrics.ElectionEmbedded or
// metrics.ElectionNotice. It takes the route writer lock: callers queue
// elections off their own hot path (cmd/namesrv's embedded controller, the
// worker pool for a notice).
func (ns *NameServer) ApplyElection(e route.Election, source string) error {
	outcome, err := ns.routes.ApplyElection(e)
	if err != nil {
		return fmt.Errorf("apply the controller's election: %w", err)
	}
	if outcome.Applied {
		ns.obs.metrics.ElectionApplied(source)
	}
	return nil
}

// notifyNamesrvMasterElected serves a standalone controller leader's notice
// of an election (wire.CodeNotifyNamesrvMasterElected, ours). It is broker
// control: with ACL on, the controller signs as an admin account or comes
// from a globalWhiteRemoteAddresses address (docs/controller.md).
func (ns *NameServer) notifyNamesrvMasterElected(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.NotifyNamesrvMasterElectedRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	e := route.Election{Cluster: h.ClusterName, BrokerName: h.BrokerName, MasterAddr: h.MasterAddress, Epoch: int64(h.MasterEpoch)}
	if err := ns.ApplyElection(e, metrics.ElectionNotice); err != nil {
		ns.warn(logrus.Fields{"brokerName": truncated(h.BrokerName), "peer": conn.RemoteAddr()}, err, "controller's election notice refused")
		return systemError(req, err.Error())
	}
	return success(req)
}
