package namesrv

import (
	"fmt"
	"net/netip"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
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
// is changeable over the wire).
func newChecker(cfg *config.Config, log *logrus.Entry) (*acl.Checker, error) {
	white, err := acl.ParsePatternList(cfg.AdminWhiteRemoteAddresses)
	if err != nil {
		return nil, fmt.Errorf("adminWhiteRemoteAddresses: %w", err)
	}
	checker, err := acl.New(acl.Options{
		Enabled:            cfg.AclEnable,
		File:               cfg.ACLFile(),
		AnonymousRouteRead: cfg.AclAnonymousRouteRead,
		AdminWhite:         white,
		Log:                log,
	})
	if err != nil {
		return nil, err
	}
	checker.Watch(acl.ReloadInterval)
	return checker, nil
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
			return remoting.NewResponse(req, remoting.NO_PERMISSION, denial.Error())
		}
		return handler(conn, req)
	}
}

// checkRequest is the checker's Check of req, through conn's memo of the
// signed requests admitted on it: a signed request whose digest (code, ext
// fields, body) was admitted on conn under the accounts in force is
// admitted without its HMAC; one admitted by Check is remembered. A denial
// is never remembered, so it is checked (and counted, and logged) every
// time.
func (ns *NameServer) checkRequest(class acl.Class, conn *remoting.Conn, req *remoting.Command) *acl.Denial {
	_, hasKey := req.ExtFields[aclsign.AccessKey]
	_, hasSignature := req.ExtFields[aclsign.Signature]
	if !hasKey && !hasSignature || len(req.Body) > acl.VerifiedBodyMax {
		return ns.acl.Check(class, req.ExtFields, req.Body, remoteAddr(conn))
	}
	memo, epoch := verifiedMemo(conn), ns.acl.Epoch()
	digest := req.SignedDigest()
	if memo.Allowed(epoch, digest) {
		return nil
	}
	denial := ns.acl.Check(class, req.ExtFields, req.Body, remoteAddr(conn))
	if denial == nil {
		memo.Remember(epoch, digest)
	}
	return denial
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
	return verifiedMemo(q.Conn).Allowed(ns.acl.Epoch(), q.Digest)
}

// verifiedMemo is conn's memo of admitted signed requests.
func verifiedMemo(conn *remoting.Conn) *acl.Verified {
	return conn.AccessMemo(newVerifiedMemo).(*acl.Verified)
}

func newVerifiedMemo() any { return new(acl.Verified) }

// remoteAddr is the peer's IP; the zero Addr (which no pattern but `*`
// matches) when it cannot be read.
func remoteAddr(conn *remoting.Conn) netip.Addr {
	addrPort, err := netip.ParseAddrPort(conn.RemoteAddr())
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}

// ACL is the access checker, for its denial and reload counts
// (Denials, ReloadFailures) and for the HTTP side port's CheckBasic.
func (ns *NameServer) ACL() *acl.Checker { return ns.acl }
