package namesrv

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// aclClasses maps the dispatch table's classes to the checker's.
var aclClasses = map[requestClass]acl.Class{
	classRouteRead:  acl.RouteRead,
	classBrokerCtl:  acl.BrokerCtl,
	classAdminRead:  acl.AdminRead,
	classAdminWrite: acl.AdminWrite,
}

// newChecker builds the access checker of cfg: aclEnable, aclFile,
// aclAnonymousRouteRead and adminWhiteRemoteAddresses, all read once (none
// is changeable over the wire). An embedded controller shares it (ACL).
func newChecker(cfg *config.Config, log *logrus.Entry) (*acl.Checker, error) {
	return portguard.NewChecker(portguard.ACLKeys{AclEnable: cfg.AclEnable, AclFile: cfg.ACLFile(),
		AclAnonymousRouteRead: cfg.AclAnonymousRouteRead, AdminWhiteRemoteAddresses: cfg.AdminWhiteRemoteAddresses}, log)
}

// guarded is spec's handler behind the access check of its class, which
// a body on a code that takes none never reaches (bodyCodes). A class
// the checker does not guard (every class with ACL off, but admin writes
// under adminWhiteRemoteAddresses) keeps its bare handler: an unsigned
// route read then costs nothing more than before.
func (ns *NameServer) guarded(spec handlerSpec) remoting.Handler {
	class := aclClasses[spec.class]
	if !ns.acl.Guards(class) {
		return spec.handler
	}
	handler := spec.handler
	takesBody := bodyCodes[spec.code]
	return func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		if !takesBody && len(req.Body) > 0 {
			return systemError(req, fmt.Sprintf("%s takes no body; a request with a body of %d bytes is refused",
				remoting.RequestCodeName(req.Code), len(req.Body)))
		}
		if denial := ns.checkRequest(class, conn, req); denial != nil {
			return portguard.Refusal(req, denial)
		}
		return handler(conn, req)
	}
}

// checkRequest is the checker's Check of req through conn's memo of
// admitted signed requests (portguard.Check).
func (ns *NameServer) checkRequest(class acl.Class, conn *remoting.Conn, req *remoting.Command) *acl.Denial {
	return portguard.Check(ns.acl, class, conn, req)
}

// fastRouteAdmitted says whether the fast path may answer route query q
// with ACL on: an unsigned one when aclAnonymousRouteRead admits it, a
// signed one when the same request was admitted on its connection under
// the accounts in force (a first one, and every one the memo does not
// hold, goes to the normal path, which checks and remembers it).
func (ns *NameServer) fastRouteAdmitted(q remoting.FastRouteQuery) bool {
	if !q.Signed {
		return ns.acl.AnonymousRouteReads()
	}
	return portguard.Memo(q.Conn).Allowed(ns.acl.Epoch(), q.Digest)
}

// ACL is the access checker, for its denial and reload counts
// (Denials, ReloadFailures), for the HTTP side port's CheckBasic, and for
// the embedded controller's port, which it guards too.
func (ns *NameServer) ACL() *acl.Checker { return ns.acl }
