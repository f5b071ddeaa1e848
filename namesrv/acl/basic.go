package acl

import "net/netip"

// Enabled is aclEnable: whether accounts are checked at all. The HTTP side
// port asks it to decide whether its JSON view needs credentials and
// whether its write endpoints may be used (never without ACL).
func (c *Checker) Enabled() bool { return c.opts.Enabled }

// NoCredentials counts and logs a side-port request that came without
// HTTP Basic credentials where they are needed, under the same class and
// reason (not_signed) as an unsigned wire request, and returns its denial.
func (c *Checker) NoCredentials(remote netip.Addr, admin bool) *Denial {
	class := AdminRead
	if admin {
		class = AdminWrite
	}
	return c.deny(class, NotSigned, remote, "")
}

// IsAdmin reports whether accessKey names an admin account of the accounts
// in force; call it only once CheckBasic admitted the key, so it says
// nothing to a caller without the secret.
func (c *Checker) IsAdmin(accessKey string) bool {
	account := c.accounts.Load().byKey[accessKey]
	return account != nil && account.Admin
}
