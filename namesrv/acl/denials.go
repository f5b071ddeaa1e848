package acl

import (
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// Reason says why a request was refused.
type Reason int

// The reasons of a refusal.
const (
	NotSigned              Reason = iota // no AccessKey/Signature where the class needs an account
	UnknownAccessKey                     // no account has the AccessKey
	SignatureMismatch                    // the signature (or HTTP secret) does not verify
	NotAdmin                             // an admin write, or broker control from outside globalWhiteRemoteAddresses, by an account without admin: true
	AddressNotAllowed                    // the account's whiteRemoteAddress refuses the peer
	AdminAddressNotAllowed               // adminWhiteRemoteAddresses refuses the peer
	TooManyGuesses                       // HTTP Basic: the peer's wrong secrets used up its guesses
	numReasons
)

var reasonNames = [numReasons]string{
	"not_signed", "unknown_access_key", "signature_mismatch", "not_admin", "address_not_allowed", "admin_address_not_allowed",
	"too_many_guesses",
}

// String is the reason's name in logs and counters.
func (r Reason) String() string {
	if r < 0 || r >= numReasons {
		return "unknown"
	}
	return reasonNames[r]
}

// remark is the NO_PERMISSION answer's text: why, never a secret.
func (r Reason) remark(class Class, remote netip.Addr) string {
	switch r {
	case NotSigned:
		if class == BrokerCtl {
			return "no permission: the request is not signed and the address " + remote.String() + " is not in globalWhiteRemoteAddresses"
		}
		return "no permission: the request is not signed (no AccessKey and Signature) and " + class.String() + " needs an account"
	case UnknownAccessKey, SignatureMismatch:
		return credentialsRemark
	case NotAdmin:
		if class == BrokerCtl {
			return "no permission: the account is not an admin, and broker control (registering, heartbeating, unregistering brokers) needs an admin account or an address in globalWhiteRemoteAddresses (" + remote.String() + " is not)"
		}
		return "no permission: the account is not an admin"
	case AddressNotAllowed:
		return "no permission: the address " + remote.String() + " is not allowed for this account"
	case TooManyGuesses:
		return "no permission: too many wrong credentials from " + remote.String() + "; try again in a second"
	case AdminAddressNotAllowed:
		return "no permission: admin writes are not allowed from the address " + remote.String()
	}
	return "no permission"
}

// credentialsRemark answers an unknown AccessKey and a signature that does
// not verify alike, so that a peer without a secret cannot tell which
// AccessKeys exist (account enumeration); the log names which it was.
const credentialsRemark = "no permission: unknown AccessKey or signature mismatch"

// publicReason is the reason a refusal is counted under: an unknown
// AccessKey counts as a signature mismatch, since the counters are on the
// side port's /metrics, which needs no credentials.
func publicReason(r Reason) Reason {
	if r == UnknownAccessKey {
		return SignatureMismatch
	}
	return r
}

// Denial is a refused request; its Error is the remark to answer with.
type Denial struct {
	Class  Class
	Reason Reason
	remark string
}

// Error is the remark of the NO_PERMISSION answer.
func (d *Denial) Error() string { return d.remark }

// DenialCount is the number of refusals of one class for one reason.
type DenialCount struct {
	Class  Class
	Reason Reason
	Count  uint64
}

// deniedLogPeriod paces the denial log: one line per reason per second at
// most, the next one saying how many were held back.
const deniedLogPeriod = time.Second

// denialCounts counts refusals by class and reason and paces their log.
type denialCounts struct {
	counts [numClasses][numReasons]atomic.Uint64
	// lastLog is the Unix nanoseconds of each reason's last log line;
	// held counts the refusals since, not logged.
	lastLog [numReasons]atomic.Int64
	held    [numReasons]atomic.Uint64
}

// deny counts, reports and (paced) logs one refusal.
func (c *Checker) deny(class Class, reason Reason, remote netip.Addr, accessKey string) *Denial {
	if class >= 0 && class < numClasses {
		c.denials.counts[class][publicReason(reason)].Add(1)
	}
	if c.opts.OnDenial != nil {
		c.opts.OnDenial(class, publicReason(reason))
	}
	now := time.Now().UnixNano()
	last := c.denials.lastLog[reason].Load()
	if now-last >= int64(deniedLogPeriod) && c.denials.lastLog[reason].CompareAndSwap(last, now) {
		fields := logrus.Fields{"class": class.String(), "reason": reason.String(), "remote": remote.String(),
			"suppressedSinceLast": c.denials.held[reason].Swap(0)}
		if accessKey != "" {
			fields["accessKey"] = accessKey
		}
		c.opts.Log.WithFields(fields).Warn("request refused: no permission")
	} else {
		c.denials.held[reason].Add(1)
	}
	return &Denial{Class: class, Reason: reason, remark: reason.remark(class, remote)}
}

// Denials returns the refusal counts that are not zero, by class then reason.
func (c *Checker) Denials() []DenialCount {
	var out []DenialCount
	for class := range numClasses {
		for reason := range numReasons {
			if n := c.denials.counts[class][reason].Load(); n > 0 {
				out = append(out, DenialCount{Class: class, Reason: reason, Count: n})
			}
		}
	}
	return out
}

// Denied returns the refusals of one class for one reason.
func (c *Checker) Denied(class Class, reason Reason) uint64 {
	if class < 0 || class >= numClasses || reason < 0 || reason >= numReasons {
		return 0
	}
	return c.denials.counts[class][reason].Load()
}

// Classes lists every request class, so a metric can show the zeros too.
func Classes() []Class {
	out := make([]Class, numClasses)
	for c := range numClasses {
		out[c] = c
	}
	return out
}

// Reasons lists every reason a refusal is counted under, so a metric can
// show the zeros too (an unknown AccessKey counts as signature_mismatch).
func Reasons() []Reason {
	out := make([]Reason, 0, numReasons)
	for r := range numReasons {
		if publicReason(r) == r {
			out = append(out, r)
		}
	}
	return out
}
