package node

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
	nsroute "github.com/gonamesrv/gonamesrv/route"
)

// The names, addresses and lists a controller request carries are bounded
// as REGISTER_BROKER bounds them on the NameServer (route.MaxNameLength,
// route.MaxAddrLength, through route's own checks), and refused with code 1
// naming the field before the request reaches the state or the Raft log: a
// 1 MB brokerName must not become a 1 MB log entry, snapshot line and
// heartbeat key.

// Reasons a request is refused here (the label of refusedTotal).
const (
	refusedBound   = "bound"   // a name, address or list past its bound
	refusedMissing = "missing" // a heartbeat without a field it needs
	refusedHeader  = "header"  // a heartbeat whose header does not decode
	refusedLimit   = "limit"   // the state's bound (controllerMaxBrokerSets, controllerMaxBrokerIdsPerSet)
)

// maxCheckCodeSuffix bounds what follows the address in a registerCheckCode
// ("brokerAddr;epochMillis", Java's ReplicasManager): a decimal 64-bit number
// is at most 20 bytes.
const maxCheckCodeSuffix = 20

// checkRequest checks the header of a request (one of the controller's
// wire headers) against the bounds; nil for a header without names.
func (n *Node) checkRequest(h any) error {
	switch h := h.(type) {
	case *wire.AlterSyncStateSetRequest:
		return checkBrokerName(h.BrokerName)
	case *wire.ElectMasterRequest:
		return checkNames(h.ClusterName, h.BrokerName)
	case *wire.RegisterBrokerRequest:
		if err := checkNames(h.ClusterName, h.BrokerName); err != nil {
			return err
		}
		return nsroute.CheckAddrField("brokerAddress", h.BrokerAddress)
	case *wire.GetReplicaInfoRequest:
		return checkBrokerName(h.BrokerName)
	case *wire.CleanBrokerDataRequest:
		if err := checkNames(h.ClusterName, h.BrokerName); err != nil {
			return err
		}
		// No set holds more ids than controllerMaxBrokerIdsPerSet, so no
		// clean needs to name more (each a distinct id in the event).
		if ids, max := strings.Count(h.BrokerControllerIdsToClean, ";")+1, n.Config().MaxBrokerIDsPerSet; ids > max {
			return fmt.Errorf("%w: brokerControllerIdsToClean lists %d ids, at most %d (controllerMaxBrokerIdsPerSet)",
				nsroute.ErrLimitExceeded, ids, max)
		}
		return nil
	case *wire.GetNextBrokerIDRequest:
		return checkNames(h.ClusterName, h.BrokerName)
	case *wire.ApplyBrokerIDRequest:
		if err := checkNames(h.ClusterName, h.BrokerName); err != nil {
			return err
		}
		return checkRegisterCheckCode(h.RegisterCheckCode)
	case *wire.BrokerHeartbeatRequest:
		return nsroute.CheckBrokerIdentity(h.ClusterName, h.BrokerName, h.BrokerAddr)
	}
	return nil
}

func checkBrokerName(name string) error { return nsroute.CheckNameField("brokerName", name) }

func checkNames(cluster, brokerName string) error {
	if err := nsroute.CheckNameField("clusterName", cluster); err != nil {
		return err
	}
	return checkBrokerName(brokerName)
}

// checkRegisterCheckCode bounds "brokerAddr;epochMillis": the address as a
// broker address, the rest as a number.
func checkRegisterCheckCode(code string) error {
	addr, rest, _ := strings.Cut(code, ";")
	if err := nsroute.CheckAddrField("registerCheckCode", addr); err != nil {
		return err
	}
	if len(rest) > maxCheckCodeSuffix {
		return fmt.Errorf("%w: registerCheckCode is %d bytes long, at most %d (an address, ';' and a number)",
			nsroute.ErrLimitExceeded, len(code), nsroute.MaxAddrLength+1+maxCheckCodeSuffix)
	}
	return nil
}

// checkBrokerNames bounds the names of a GET_SYNC_STATE_DATA body.
func checkBrokerNames(names []string) error {
	for _, name := range names {
		if err := checkBrokerName(name); err != nil {
			return err
		}
	}
	return nil
}

// checkHeartbeatFields refuses a BROKER_HEARTBEAT without the fields its
// table entry is keyed and answered by (Java takes it and keys the member
// by empty names; the controller issue asked for required fields).
func checkHeartbeatFields(h *wire.BrokerHeartbeatRequest) error {
	for _, f := range []struct{ name, value string }{
		{"clusterName", h.ClusterName}, {"brokerName", h.BrokerName}, {"brokerAddr", h.BrokerAddr},
	} {
		if f.value == "" {
			return fmt.Errorf("the field <%s> is missing or empty", f.name)
		}
	}
	return nil
}

// refuse answers a request refused here with code 1 and the reason, counts
// it and logs it rate-limited (a stranger can send any number). A one-way
// request gets no answer.
func (n *Node) refuse(req *remoting.Command, reason string, err error) *remoting.Command {
	n.noteRefusal(req.Code, reason, req.IsOneway(), err)
	if req.IsOneway() {
		return nil
	}
	return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
}

// noteRefusal counts a refusal and logs it, at most once a second per
// reason (ratelog), so a flood of one kind does not hide another.
func (n *Node) noteRefusal(code int32, reason string, oneway bool, err error) {
	n.metrics.refused.WithLabelValues(strconv.Itoa(int(code)), reason).Inc()
	n.refusals.Warn(n.log, logrus.Fields{"code": code, "reason": reason, "oneway": oneway}, err,
		"controller request refused ("+reason+")")
}

// limits are the state's bounds of the node's configuration (read at start:
// they are not changeable over the wire).
func (n *Node) limits() controller.Limits {
	cfg := n.Config()
	return controller.Limits{MaxBrokerSets: cfg.MaxBrokerSets, MaxBrokerIDsPerSet: cfg.MaxBrokerIDsPerSet}
}

// applyBrokerIDWithin validates CONTROLLER_APPLY_BROKER_ID and, when it would
// add a set or a member, refuses it past the state's bounds: nothing is
// appended. Java's own answers (an id already held, an unknown set's id
// other than 1) come first.
func (n *Node) applyBrokerIDWithin(s *controller.State, h *wire.ApplyBrokerIDRequest, _ controller.Liveness) *controller.Result[wire.ApplyBrokerIDResponse] {
	res := s.ApplyBrokerID(h)
	if len(res.Events) == 0 {
		return res
	}
	if err := s.CheckApplyBrokerID(h.BrokerName, h.AppliedBrokerID, n.limits()); err != nil {
		n.noteRefusal(wire.CodeApplyBrokerID, refusedLimit, false, err)
		res.Events, res.Code, res.Remark = nil, int(remoting.SYSTEM_ERROR), "apply broker id refused: "+err.Error()
	}
	return res
}
