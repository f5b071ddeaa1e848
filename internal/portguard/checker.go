package portguard

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
)

// ACLKeys are a port's ACL settings, under the NameServer's key names.
type ACLKeys struct {
	// AclEnable turns signatures and per-class rules on.
	AclEnable bool
	// AclFile is the plain_acl.yml to load and watch (the caller resolves
	// its default).
	AclFile string
	// AclAnonymousRouteRead admits unsigned reads of the RouteRead class.
	AclAnonymousRouteRead bool
	// AdminWhiteRemoteAddresses, when not empty, refuses admin writes from
	// every other address, with or without ACL.
	AdminWhiteRemoteAddresses string
}

// NewChecker builds the access checker of keys, every key read once (none
// is changeable over the wire), and starts following the accounts file's
// changes; Close the checker to stop that.
func NewChecker(keys ACLKeys, log *logrus.Entry) (*acl.Checker, error) {
	white, err := acl.ParsePatternList(keys.AdminWhiteRemoteAddresses)
	if err != nil {
		return nil, fmt.Errorf("adminWhiteRemoteAddresses: %w", err)
	}
	checker, err := acl.New(acl.Options{
		Enabled:            keys.AclEnable,
		File:               keys.AclFile,
		AnonymousRouteRead: keys.AclAnonymousRouteRead,
		AdminWhite:         white,
		Log:                log,
	})
	if err != nil {
		return nil, err
	}
	checker.Watch(acl.ReloadInterval)
	return checker, nil
}
