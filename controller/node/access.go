package node

import (
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// accessClasses is the access class of each code of routes, decided as the
// NameServer decides its own (namesrv/acl): broker control needs an admin
// account or an address in globalWhiteRemoteAddresses, as REGISTER_BROKER
// does; admin writes an admin account (and adminWhiteRemoteAddresses when
// set); route reads follow aclAnonymousRouteRead. ELECT_MASTER is in both:
// a broker elects itself (designateElect=false with its own brokerId,
// broker control), an operator designates a master (designateElect=true)
// and only the controller itself elects with no broker (brokerId -1),
// both admin writes (classOf). TestEveryRouteHasAClass keeps the table
// beside routes.
var accessClasses = map[int32]acl.Class{
	wire.CodeAlterSyncStateSet:      acl.BrokerCtl,
	wire.CodeRegisterBroker:         acl.BrokerCtl,
	wire.CodeGetNextBrokerID:        acl.BrokerCtl,
	wire.CodeApplyBrokerID:          acl.BrokerCtl,
	wire.CodeBrokerHeartbeat:        acl.BrokerCtl,
	wire.CodeElectMaster:            acl.BrokerCtl, // but see classOf
	wire.CodeUpdateControllerConfig: acl.AdminWrite,
	wire.CodeCleanBrokerData:        acl.AdminWrite,
	wire.CodeAddControllerPeer:      acl.AdminWrite,
	wire.CodeRemoveControllerPeer:   acl.AdminWrite,
	wire.CodeGetReplicaInfo:         acl.RouteRead,
	wire.CodeGetMetadataInfo:        acl.RouteRead,
	wire.CodeGetSyncStateData:       acl.RouteRead,
	wire.CodeGetControllerConfig:    acl.RouteRead,
	// 5020, the leader's liveness question to the other nodes (agree.go):
	// a read that changes nothing and tells which brokers a node hears and
	// their addresses, what GET_SYNC_STATE_DATA already tells a route
	// reader; as broker control the leader's own signature would have to
	// be an admin account or its address white-listed on every node, and a
	// refused question counts as "not heard", which would turn the group's
	// check back into the leader's alone.
	wire.CodeGetBrokerLiveness: acl.RouteRead,

	// Ours: moving the leadership is an operator's write.
	wire.CodeTransferControllerLeader: acl.AdminWrite,
}

// ELECT_MASTER's header fields that tell a broker's election from an
// operator's.
const (
	designateElectExt = "designateElect"
	brokerIDExt       = "brokerId"
)

// classOf is req's class: accessClasses', but an ELECT_MASTER is broker
// control only when a broker asks to elect itself: designateElect not
// "true" (read as the header decoder reads a boolean) and a brokerId of 0
// or more; any other is an admin write.
func classOf(req *remoting.Command) acl.Class {
	if req.Code != wire.CodeElectMaster {
		return accessClasses[req.Code]
	}
	id, err := strconv.ParseInt(req.ExtFields[brokerIDExt], 10, 64)
	if err != nil || id < 0 || strings.EqualFold(req.ExtFields[designateElectExt], "true") {
		return acl.AdminWrite
	}
	return acl.BrokerCtl
}

// guard wraps handle in the access check of its code's class; a code
// whose classes the checker does not guard (all of them with ACL off, but
// admin writes under adminWhiteRemoteAddresses) keeps its bare handler.
func guard(checker *acl.Checker, code int32, handle remoting.Handler) remoting.Handler {
	if checker == nil || !guarded(checker, code) {
		return handle
	}
	return func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		if class := classOf(req); checker.Guards(class) {
			if denial := portguard.Check(checker, class, conn, req); denial != nil {
				return portguard.Refusal(req, denial)
			}
		}
		return handle(conn, req)
	}
}

// guarded says whether any class code can have is checked.
func guarded(checker *acl.Checker, code int32) bool {
	if code == wire.CodeElectMaster && checker.Guards(acl.AdminWrite) {
		return true
	}
	return checker.Guards(accessClasses[code])
}
