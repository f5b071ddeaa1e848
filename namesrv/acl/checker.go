// Package acl decides who may send which request to the NameServer: RocketMQ
// ACL 1.0 signatures checked against the accounts of a plain_acl.yml file
// (reloaded when it changes), address allow-lists, and one rule per request
// class. It is pure decision: the daemon attaches Check to its dispatch
// table and answers NO_PERMISSION when it refuses.
package acl

import (
	"crypto/subtle"
	"fmt"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
)

// unknownKeySecret is what a request naming no account is checked against,
// only to spend the time a real check spends; the result is thrown away.
const unknownKeySecret = "\x00no-such-account\x00"

// Class is what a request does, the unit authorization is decided on.
type Class int

// The request classes of the dispatch table.
const (
	RouteRead  Class = iota // route queries and topic lists
	BrokerCtl               // registrations, heartbeats, unregistrations, data versions
	AdminRead               // GET_KV_CONFIG, GET_KVLIST_BY_NAMESPACE, GET_NAMESRV_CONFIG
	AdminWrite              // KV and config writes, write-permission changes, topic deletes
	numClasses
)

var classNames = [numClasses]string{"route_read", "broker_control", "admin_read", "admin_write"}

// String is the class's name in logs and counters.
func (c Class) String() string {
	if c < 0 || c >= numClasses {
		return fmt.Sprintf("class(%d)", int(c))
	}
	return classNames[c]
}

// Options configure a Checker. Every field but Log is read once.
type Options struct {
	// Enabled is aclEnable: without it only AdminWhite is enforced.
	Enabled bool
	// File is aclFile, the plain_acl.yml to load and watch (Enabled only).
	File string
	// AnonymousRouteRead is aclAnonymousRouteRead: unsigned route reads pass.
	AnonymousRouteRead bool
	// AdminWhite is adminWhiteRemoteAddresses: when not empty, admin writes
	// from other addresses are refused, with or without ACL.
	AdminWhite Patterns
	// OnDenial, when set, is called for every refused request (for a
	// metric); it runs on the request's goroutine and must not block.
	OnDenial func(Class, Reason)
	// Log receives denials (paced), reloads and reload failures.
	Log *logrus.Entry
}

// Checker holds the accounts in force and decides requests. Its methods are
// safe for concurrent use; Check takes no lock.
type Checker struct {
	opts     Options
	accounts atomic.Pointer[Accounts]
	denials  denialCounts
	reloads  reloadState
	basic    basicPacer
	// signatureChecks counts the HMACs Check computed (SignatureChecks).
	signatureChecks atomic.Uint64
}

// New builds a checker; with Enabled it loads opts.File, and a file that is
// missing or does not parse is an error (there are no earlier accounts to
// keep). Call Watch to follow the file's changes.
func New(opts Options) (*Checker, error) {
	if opts.Log == nil {
		opts.Log = logrus.NewEntry(logrus.StandardLogger())
	}
	c := &Checker{opts: opts}
	c.accounts.Store(&Accounts{byKey: map[string]*Account{}})
	if opts.Enabled {
		if err := c.loadFile(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Guards reports whether requests of class are checked at all: the daemon
// leaves the handlers of unguarded classes unwrapped, so they cost nothing.
func (c *Checker) Guards(class Class) bool {
	return c.opts.Enabled || (class == AdminWrite && len(c.opts.AdminWhite) > 0)
}

// Check decides one request of class from remote with its ext fields and
// body; nil admits it. A request that carries an AccessKey or a Signature
// must verify, whatever its class: a wrong secret is refused, never served
// as anonymous.
func (c *Checker) Check(class Class, ext map[string]string, body []byte, remote netip.Addr) *Denial {
	if class == AdminWrite && len(c.opts.AdminWhite) > 0 && !c.opts.AdminWhite.Match(remote) {
		return c.deny(class, AdminAddressNotAllowed, remote, "")
	}
	if !c.opts.Enabled {
		return nil
	}
	accessKey, hasKey := ext[aclsign.AccessKey]
	_, hasSignature := ext[aclsign.Signature]
	if !hasKey && !hasSignature {
		return c.anonymous(class, remote)
	}
	account := c.accounts.Load().byKey[accessKey]
	c.signatureChecks.Add(1)
	switch {
	case account == nil:
		// The MAC is computed all the same, so an unknown AccessKey takes
		// as long to refuse as a wrong signature (no timing to enumerate by).
		aclsign.Verify(ext, body, unknownKeySecret)
		return c.deny(class, UnknownAccessKey, remote, accessKey)
	case !aclsign.Verify(ext, body, account.secret):
		return c.deny(class, SignatureMismatch, remote, accessKey)
	}
	return c.authorize(class, account, remote)
}

// SignatureChecks is how many signed requests Check verified (computed
// the HMAC of): what a Verified memo spares shows as checks not made.
func (c *Checker) SignatureChecks() uint64 { return c.signatureChecks.Load() }

// Epoch numbers the accounts in force: it moves on every load, and a
// Verified memo read under an older one is empty. Read it before Check to
// remember an admission: loadData puts the accounts in force before it
// moves the epoch, so an admission kept under an epoch was decided with
// that epoch's accounts or newer ones, and a newer epoch drops it.
func (c *Checker) Epoch() uint64 { return c.reloads.loads.Load() }

// AnonymousRouteReads says whether unsigned route reads are admitted with
// ACL on (aclAnonymousRouteRead), which the fast path then answers.
func (c *Checker) AnonymousRouteReads() bool { return c.opts.AnonymousRouteRead }

// CheckBasic decides a request that presents an account's keys in the clear
// (HTTP Basic on the side port): the secret is compared in constant time;
// admin asks for an admin account; wrong secrets are paced per source
// address (basic_pace.go). It returns nil or a *Denial.
func (c *Checker) CheckBasic(accessKey, secretKey string, remote netip.Addr, admin bool) error {
	class := AdminRead
	if admin {
		class = AdminWrite
	}
	if admin && len(c.opts.AdminWhite) > 0 && !c.opts.AdminWhite.Match(remote) {
		return c.deny(class, AdminAddressNotAllowed, remote, "")
	}
	if !c.opts.Enabled {
		return nil
	}
	if !c.basic.take(remote, time.Now()) {
		return c.deny(class, TooManyGuesses, remote, "")
	}
	account := c.accounts.Load().byKey[accessKey]
	if account == nil {
		subtle.ConstantTimeCompare([]byte(secretKey), []byte(unknownKeySecret))
		return c.deny(class, UnknownAccessKey, remote, accessKey)
	}
	if subtle.ConstantTimeCompare([]byte(secretKey), []byte(account.secret)) != 1 {
		return c.deny(class, SignatureMismatch, remote, accessKey)
	}
	c.basic.giveBack(remote, time.Now()) // the secret was right: not a guess
	if denial := c.authorize(class, account, remote); denial != nil {
		return denial
	}
	return nil
}

// BasicPaceTracked is how many source addresses the Basic guess pacing
// follows (at most BasicPaceAddresses).
func (c *Checker) BasicPaceTracked() int { return c.basic.tracked() }

// anonymous decides an unsigned request.
func (c *Checker) anonymous(class Class, remote netip.Addr) *Denial {
	switch {
	case class == RouteRead && c.opts.AnonymousRouteRead:
		return nil
	case class == BrokerCtl && c.accounts.Load().global.Match(remote):
		return nil
	}
	return c.deny(class, NotSigned, remote, "")
}

// authorize decides a request whose signature verified for account.
func (c *Checker) authorize(class Class, account *Account, remote netip.Addr) *Denial {
	if account.white != nil && !account.white.Match(remote) {
		return c.deny(class, AddressNotAllowed, remote, account.AccessKey)
	}
	switch {
	case account.Admin:
	case class == AdminWrite:
		return c.deny(class, NotAdmin, remote, account.AccessKey)
	case class == BrokerCtl && !c.accounts.Load().global.Match(remote):
		// Broker control moves routes: a client's account must not
		// register, refresh or remove brokers (Java's shipped
		// plain_acl.yml signs its brokers with the admin account).
		return c.deny(class, NotAdmin, remote, account.AccessKey)
	}
	return nil
}

// Accounts returns the accounts in force (never nil).
func (c *Checker) Accounts() *Accounts { return c.accounts.Load() }
