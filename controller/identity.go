package controller

import (
	"crypto/rand"
	"encoding/hex"
)

// newSetIdentity draws a set's identity: 128 random bits in hex. The leader
// draws it when it proposes the event that creates the set, so the log
// carries it and every node applies the same.
func newSetIdentity() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+: it panics instead)
	return hex.EncodeToString(b[:])
}
