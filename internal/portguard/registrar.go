package portguard

import (
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Registrar is where a port's request handlers go: a *remoting.Server, or a
// Guard in front of one.
type Registrar interface {
	Handle(code int32, h remoting.Handler, opts ...remoting.HandleOption)
}

// Guard registers handlers on Port behind the access check of their code's
// class, so that a port whose handlers several packages register is
// guarded in one place. A code Classes does not name is an admin write: a
// handler added without a class fails closed (only admins, with ACL on).
type Guard struct {
	Port Registrar
	// Checker decides the requests; nil checks nothing.
	Checker *acl.Checker
	Classes map[int32]acl.Class
}

// Handle registers h for code on Port behind code's access check.
func (g Guard) Handle(code int32, h remoting.Handler, opts ...remoting.HandleOption) {
	g.Port.Handle(code, g.Wrap(code, h), opts...)
}

// ClassOf is code's class in Classes, AdminWrite for a code without one.
func (g Guard) ClassOf(code int32) acl.Class {
	if class, ok := g.Classes[code]; ok {
		return class
	}
	return acl.AdminWrite
}

// Wrap is h behind the access check of code's class; a class the checker
// does not guard (every class with ACL off, but admin writes under
// adminWhiteRemoteAddresses) keeps the bare handler, which then costs
// nothing more than before. A refusal is NO_PERMISSION naming why; the
// checker counts it and logs it paced.
func (g Guard) Wrap(code int32, h remoting.Handler) remoting.Handler {
	class, checker := g.ClassOf(code), g.Checker
	if checker == nil || !checker.Guards(class) {
		return h
	}
	return func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		if denial := Check(checker, class, conn, req); denial != nil {
			return Refusal(req, denial)
		}
		return h(conn, req)
	}
}
