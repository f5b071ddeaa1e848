package acl

import "sync"

// VerifiedEntries is how many admitted requests one connection's Verified
// memo holds (32-byte digests: under 16 KiB with the map's own); a further
// one empties it first (reset when full). A connection that signs more
// distinct requests than that in turn (a client of many topics) pays the
// signature check on those past the bound, as without the memo.
const VerifiedEntries = 256

// VerifiedBodyMax is the largest body of a request the memo is used for: a
// larger one is checked every time (digesting a large body costs what its
// HMAC costs).
const VerifiedBodyMax = 1024

// Digest is the SHA-256 of a request's signed key: its code, every ext
// field with its name (the credentials among them) and its body, each
// behind its length (remoting's SignedDigest).
type Digest = [32]byte

// Verified is one connection's memo of the signed requests the checker
// admitted: ACL 1.0 signatures carry no nonce, so a client's same request
// carries the same bytes every time, and a request whose digest equals one
// admitted on the same connection, under the same accounts, is admitted
// again without its HMAC. Only admissions are remembered, never a denial.
// The memo is keyed by the checker's Epoch: an accounts reload empties it
// at its next use, so a removed account or a changed right is checked
// afresh. The peer's address, the other input of a check, is the
// connection's own. Safe for concurrent use (the event loop's fast path
// and a worker's handler may share a connection).
type Verified struct {
	mu      sync.Mutex
	epoch   uint64
	allowed map[Digest]struct{}
}

// Allowed says whether digest was admitted under epoch on this connection.
func (v *Verified) Allowed(epoch uint64, digest Digest) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.current(epoch) {
		return false
	}
	_, ok := v.allowed[digest]
	return ok
}

// Remember records that digest was admitted by a check that read the
// checker's Epoch as epoch before it began (so that a reload during the
// check leaves the entry under the older epoch, to be dropped). An
// admission of an epoch older than the memo's is not kept.
func (v *Verified) Remember(epoch uint64, digest Digest) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.current(epoch) {
		return
	}
	if _, ok := v.allowed[digest]; ok {
		return
	}
	if len(v.allowed) >= VerifiedEntries {
		clear(v.allowed)
	}
	if v.allowed == nil {
		v.allowed = make(map[Digest]struct{})
	}
	v.allowed[digest] = struct{}{}
}

// Len is how many admitted requests the memo holds.
func (v *Verified) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.allowed)
}

// current moves the memo to epoch when that is newer (emptying it) and
// says whether the memo is now at epoch; v.mu is held.
func (v *Verified) current(epoch uint64) bool {
	if epoch > v.epoch {
		clear(v.allowed)
		v.epoch = epoch
	}
	return epoch == v.epoch
}
