package namesrv

import (
	"errors"
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
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
	e.Now = ns.clock.Now()
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
// of an election (wire.CodeNotifyNamesrvMasterElected, ours). It moves
// routes, so it is taken only from a host of controllerAddr and, with ACL
// on, only signed by an admin account (noticeSender); docs/security.md.
func (ns *NameServer) notifyNamesrvMasterElected(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	if reason, remark := ns.noticeSender(conn, req); reason != "" {
		ns.noticeRefused(conn, reason, remark, nil)
		return remoting.NewResponse(req, remoting.NO_PERMISSION, remark)
	}
	var h wire.NotifyNamesrvMasterElectedRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		ns.noticeRefused(conn, metrics.NoticeInvalid, "", err)
		return systemError(req, err.Error())
	}
	e := route.Election{Cluster: h.ClusterName, BrokerName: h.BrokerName, MasterAddr: h.MasterAddress,
		Epoch: int64(h.MasterEpoch), Identity: h.Identity}
	if err := ns.ApplyElection(e, metrics.ElectionNotice); err != nil {
		reason, remark := metrics.NoticeInvalid, err.Error()
		if errors.Is(err, route.ErrElectionEpochJump) {
			reason, remark = metrics.NoticeEpochJump, remark+" (controllerMaxEpochJump)"
		}
		ns.noticeRefused(conn, reason, "", err, logrus.Fields{"brokerName": truncated(h.BrokerName),
			"masterAddr": truncated(h.MasterAddress), "masterEpoch": h.MasterEpoch})
		return systemError(req, remark)
	}
	return success(req)
}

// noticeSender decides who may send an election notice: a connection from
// a host of controllerAddr (none when it is empty) and, with aclEnable, a
// request signed by an admin account (the access guard of its class has
// verified the signature by then; it admits an unsigned request from a
// globalWhiteRemoteAddresses address, or a client account's from there,
// which may not move routes). It returns the refusal's reason and remark,
// "" when admitted.
func (ns *NameServer) noticeSender(conn *remoting.Conn, req *remoting.Command) (reason, remark string) {
	remote := portguard.RemoteAddr(conn)
	switch {
	case ns.controllers.Empty():
		return metrics.NoticeNotController, "no permission: election notices (code 5001) are refused: controllerAddr is empty " +
			"(list the controllers there, host:port;host:port)"
	case !ns.controllers.Contains(remote):
		return metrics.NoticeNotController, fmt.Sprintf("no permission: election notice from %s, which is not a host of controllerAddr", remote)
	case !ns.acl.Enabled():
		return "", ""
	}
	accessKey, signed := req.ExtFields[aclsign.AccessKey]
	if !signed || !ns.acl.IsAdmin(accessKey) {
		return metrics.NoticeNotAdmin, "no permission: with aclEnable, an election notice (code 5001) must be signed by an admin account"
	}
	return "", ""
}

// noticeRefused counts a refused notice and logs it, at most once a second
// per kind of refusal (a stranger can send them).
func (ns *NameServer) noticeRefused(conn *remoting.Conn, reason, remark string, err error, extra ...logrus.Fields) {
	ns.obs.metrics.NoticeRefused(reason)
	fields := logrus.Fields{"peer": conn.RemoteAddr(), "reason": reason}
	if remark != "" {
		fields["remark"] = remark
	}
	for _, f := range extra {
		for k, v := range f {
			fields[k] = v
		}
	}
	ns.warnings.Log(ns.log, logrus.WarnLevel, fields, err, "controller's election notice refused: "+reason)
}
