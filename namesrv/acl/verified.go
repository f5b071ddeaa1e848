package acl

import "sync"

// The bounds of one connection's Verified memo. A connection that signs
// more distinct requests than VerifiedEntries in turn (a client of many
// topics) pays the signature check on those past the bound, as without
// the memo; one connection's memo holds at most VerifiedBytes of keys.
const (
	// VerifiedEntries is how many verified requests a connection's memo
	// holds; a further one empties it first (reset when full).
	VerifiedEntries = 256
	// VerifiedBytes bounds the keys a connection's memo holds, together.
	VerifiedBytes = 32 << 10
	// VerifiedKeyMax is the longest key remembered: a request whose fields
	// and body are longer is checked every time (a large body costs as
	// much to compare as to sign).
	VerifiedKeyMax = 1024
)

// Verified is one connection's memo of the signed requests the checker
// admitted: ACL 1.0 signatures carry no nonce, so a client's same request
// carries the same bytes every time, and a request whose key (the code,
// every ext field with its name, the body: remoting's AppendSignedKey)
// equals one admitted on the same connection, under the same accounts, is
// admitted again without the HMAC. Only admissions are remembered, never a
// denial. The memo is keyed by the checker's Epoch: any accounts reload
// empties it at its next use, so a removed account or a changed right is
// checked afresh. The peer's address, the other input of a check, is the
// connection's own. Safe for concurrent use (the event loop's fast path
// and a worker's handler may share a connection).
type Verified struct {
	mu      sync.Mutex
	epoch   uint64
	bytes   int
	allowed map[string]struct{}
}

// Allowed says whether key was admitted under epoch on this connection.
func (v *Verified) Allowed(epoch uint64, key []byte) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.current(epoch) {
		return false
	}
	_, ok := v.allowed[string(key)]
	return ok
}

// Remember records that key was admitted by a check that read the
// checker's Epoch as epoch before it began (so that a reload during the
// check leaves the entry under the older epoch, to be dropped). A key
// longer than VerifiedKeyMax, or of an epoch older than the memo's, is not
// kept.
func (v *Verified) Remember(epoch uint64, key []byte) {
	if len(key) > VerifiedKeyMax {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.current(epoch) {
		return
	}
	if _, ok := v.allowed[string(key)]; ok {
		return
	}
	if len(v.allowed) >= VerifiedEntries || v.bytes+len(key) > VerifiedBytes {
		clear(v.allowed)
		v.bytes = 0
	}
	if v.allowed == nil {
		v.allowed = make(map[string]struct{})
	}
	v.allowed[string(key)] = struct{}{}
	v.bytes += len(key)
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
		v.bytes, v.epoch = 0, epoch
	}
	return epoch == v.epoch
}
