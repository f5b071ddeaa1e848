package portguard

import (
	"net/netip"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Check is checker's Check of req, through conn's memo of the signed
// requests admitted on it: a signed request whose digest (code, ext
// fields, body) was admitted on conn under the accounts in force is
// admitted without its HMAC; one admitted by Check is remembered. A denial
// is never remembered, so it is checked (and counted, and logged) every
// time.
func Check(checker *acl.Checker, class acl.Class, conn *remoting.Conn, req *remoting.Command) *acl.Denial {
	_, hasKey := req.ExtFields[aclsign.AccessKey]
	_, hasSignature := req.ExtFields[aclsign.Signature]
	if !hasKey && !hasSignature || len(req.Body) > acl.VerifiedBodyMax {
		return checker.Check(class, req.ExtFields, req.Body, RemoteAddr(conn))
	}
	memo, epoch := Memo(conn), checker.Epoch()
	digest := req.SignedDigest()
	if memo.Allowed(epoch, digest) {
		return nil
	}
	denial := checker.Check(class, req.ExtFields, req.Body, RemoteAddr(conn))
	if denial == nil {
		memo.Remember(epoch, digest)
	}
	return denial
}

// Refusal is the NO_PERMISSION answer to req that denial gives.
func Refusal(req *remoting.Command, denial *acl.Denial) *remoting.Command {
	return remoting.NewResponse(req, remoting.NO_PERMISSION, denial.Error())
}

// Memo is conn's memo of admitted signed requests.
func Memo(conn *remoting.Conn) *acl.Verified {
	return conn.AccessMemo(newMemo).(*acl.Verified)
}

func newMemo() any { return new(acl.Verified) }

// RemoteAddr is the peer's IP; the zero Addr (which no pattern but `*`
// matches) when it cannot be read.
func RemoteAddr(conn *remoting.Conn) netip.Addr {
	addrPort, err := netip.ParseAddrPort(conn.RemoteAddr())
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}
