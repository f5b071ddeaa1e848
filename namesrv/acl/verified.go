package acl

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// VerifiedEntries is how many admitted requests one connection's Verified
// memo holds: VerifiedSets sets of verifiedWays, each entry the first 16
// bytes of a SHA-256 (a second preimage of 128 bits is out of reach, and a
// collision of two requests is of no use: whoever can sign one can sign
// the other), 8 KiB in all, made on the connection's first signed
// request. A digest takes the slot of its set's oldest entry when the set
// is full. A connection that signs more distinct requests than the sets
// hold (a client of several hundred topics) pays the signature check on
// those past them, as without the memo.
const (
	VerifiedEntries = VerifiedSets * verifiedWays
	VerifiedSets    = 128
	verifiedWays    = 4
)

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
	mu    sync.Mutex
	epoch uint64
	// sets hold the digests' first halves (a SHA-256 is uniform: bytes of
	// its second half pick the set); used has a bit per way in use, next
	// the way a new one takes.
	sets [VerifiedSets]struct {
		ways       [verifiedWays][16]byte
		used, next uint8
	}
}

// set is digest's set.
func (v *Verified) set(digest Digest) int {
	return int(binary.LittleEndian.Uint64(digest[16:24]) % VerifiedSets)
}

// Allowed says whether digest was admitted under epoch on this connection.
func (v *Verified) Allowed(epoch uint64, digest Digest) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.current(epoch) && v.find(digest) >= 0
}

// find is the way of digest in its set, or -1; v.mu is held.
func (v *Verified) find(digest Digest) int {
	set := &v.sets[v.set(digest)]
	for way := range verifiedWays {
		if set.used&(1<<way) != 0 && set.ways[way] == [16]byte(digest[:16]) {
			return way
		}
	}
	return -1
}

// Remember records that digest was admitted by a check that read the
// checker's Epoch as epoch before it began (so that a reload during the
// check leaves the entry under the older epoch, to be dropped). An
// admission of an epoch older than the memo's is not kept.
func (v *Verified) Remember(epoch uint64, digest Digest) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.current(epoch) || v.find(digest) >= 0 {
		return
	}
	set := &v.sets[v.set(digest)]
	way := set.next
	set.ways[way] = [16]byte(digest[:16])
	set.used |= 1 << way
	set.next = (way + 1) % verifiedWays // the ways are taken in turn: the oldest goes first
}

// Len is how many admitted requests the memo holds.
func (v *Verified) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for i := range v.sets {
		n += bits.OnesCount8(v.sets[i].used)
	}
	return n
}

// current moves the memo to epoch when that is newer (emptying it) and
// says whether the memo is now at epoch; v.mu is held.
func (v *Verified) current(epoch uint64) bool {
	if epoch > v.epoch {
		clear(v.sets[:])
		v.epoch = epoch
	}
	return epoch == v.epoch
}
