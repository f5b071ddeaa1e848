// Package portguard is the protection a RocketMQ remoting port takes from
// its configuration, shared by the NameServer's port and the controller's
// broker-facing port so that both read the same keys the same way: the ACL
// checker of aclEnable, aclFile, aclAnonymousRouteRead and
// adminWhiteRemoteAddresses (checker.go), the check of one request on its
// connection (check.go), the registration of a port's handlers behind
// their classes' checks (registrar.go), and the TLS of tls.server.* (tls.go).
package portguard
