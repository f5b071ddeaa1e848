package kvconfig

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// Version orders the writes of one key across NameServers: a hybrid logical
// clock (Unix milliseconds of the writer's clock, a counter for writes within
// one millisecond or behind a clock already seen, then the writer's id as
// the tiebreak). Two writes of one key made at once on two NameServers get
// two different versions, and every NameServer keeps the greater: they
// converge on the same value without talking first.
type Version struct {
	Millis  int64  `json:"millis"`
	Counter uint32 `json:"counter"`
	// Writer is the id of the NameServer that made the write (its versions
	// file's "writer"); "" for a value found without a version at load.
	Writer string `json:"writer"`
}

// Compare orders versions: -1, 0 or 1.
func (v Version) Compare(o Version) int {
	if c := cmp.Compare(v.Millis, o.Millis); c != 0 {
		return c
	}
	if c := cmp.Compare(v.Counter, o.Counter); c != 0 {
		return c
	}
	return cmp.Compare(v.Writer, o.Writer)
}

// Meta is what the store knows of one key besides its value: the version of
// its last write, whether that write was a delete (a tombstone, kept
// TombstoneRetention), and the SHA-256 of the value (empty for a tombstone).
type Meta struct {
	Version
	Deleted bool   `json:"deleted,omitempty"`
	SHA256  string `json:"valueSha256,omitempty"`
}

// Newer says m wins over o. The order is total over distinct entries, so
// every NameServer picks the same winner: the version, then a delete over a
// put, then the value's hash (two writers that share an id, a data
// directory copied, still converge).
func (m Meta) Newer(o Meta) bool {
	if c := m.Version.Compare(o.Version); c != 0 {
		return c > 0
	}
	if m.Deleted != o.Deleted {
		return m.Deleted
	}
	return m.SHA256 > o.SHA256
}

// valueHash is the hex SHA-256 of a value, which ties a version to the value
// it was written with (versions_file.go).
func valueHash(value string) string {
	sum := sha256.Sum256([]byte(value))
	return hex.EncodeToString(sum[:])
}

// hlc is the store's hybrid logical clock. It is used under the store's
// writeMu only.
type hlc struct {
	writer string
	last   Version
}

// next is a version greater than every one this store made or took, at
// nowMillis or later: a wall clock stepped back does not make a later write
// lose to an earlier one.
func (c *hlc) next(nowMillis int64) Version {
	if nowMillis > c.last.Millis {
		c.last = Version{Millis: nowMillis, Writer: c.writer}
	} else {
		c.last = Version{Millis: c.last.Millis, Counter: c.last.Counter + 1, Writer: c.writer}
	}
	return c.last
}

// observe moves the clock past v, a version taken from a peer or a file: a
// write made after this one was seen wins over it.
func (c *hlc) observe(v Version) {
	if v.Millis > c.last.Millis || (v.Millis == c.last.Millis && v.Counter > c.last.Counter) {
		c.last = Version{Millis: v.Millis, Counter: v.Counter, Writer: c.writer}
	}
}

// newWriterID is a random id for a store that has no versions file yet.
func newWriterID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
